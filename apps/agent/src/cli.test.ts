import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts');

function runCli(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8' });
}

describe('agent CLI (stub until the compute network ships)', () => {
  it('prints its usage and exits 0 for --help', () => {
    const result = runCli(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: npm run agent -- --server <url> --email <email>');
  });

  it('refuses to pretend it enrolled a device', () => {
    const result = runCli(['--server', 'http://127.0.0.1:1', '--email', 'a@b.co']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('cannot enroll devices yet');
  });
});
