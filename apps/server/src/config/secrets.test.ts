import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateJwtSecret } from './secrets.ts';

describe('loadOrCreateJwtSecret', () => {
  const directories: string[] = [];
  async function temporaryDirectory() {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'fabric-secrets-'));
    directories.push(directory);
    return directory;
  }
  afterEach(async () => {
    for (const directory of directories.splice(0))
      await rm(directory, { recursive: true, force: true });
  });

  it('creates DATA_DIR and a 0600 secrets.json holding a long random secret', async () => {
    const dataDir = path.join(await temporaryDirectory(), 'nested', 'data');
    const secret = await loadOrCreateJwtSecret(dataDir);
    expect(secret.length).toBeGreaterThanOrEqual(64);
    const file = path.join(dataDir, 'secrets.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ jwt_secret: secret });
  });

  it('returns the same secret on every later start', async () => {
    const dataDir = await temporaryDirectory();
    const first = await loadOrCreateJwtSecret(dataDir);
    expect(await loadOrCreateJwtSecret(dataDir)).toBe(first);
  });

  it('agrees on one secret when several processes start at once', async () => {
    const dataDir = await temporaryDirectory();
    const secrets = await Promise.all(
      Array.from({ length: 5 }, () => loadOrCreateJwtSecret(dataDir)),
    );
    expect(new Set(secrets).size).toBe(1);
  });

  it('tightens the permissions of a secrets file readable by others', async () => {
    const dataDir = await temporaryDirectory();
    const file = path.join(dataDir, 'secrets.json');
    await writeFile(file, JSON.stringify({ jwt_secret: 'k'.repeat(64) }));
    await chmod(file, 0o644);
    expect(await loadOrCreateJwtSecret(dataDir)).toBe('k'.repeat(64));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses a damaged secrets file instead of silently replacing the secret', async () => {
    const dataDir = await temporaryDirectory();
    await writeFile(path.join(dataDir, 'secrets.json'), JSON.stringify({ jwt_secret: 'short' }));
    await expect(loadOrCreateJwtSecret(dataDir)).rejects.toThrow(/not a valid secrets file/);
  });
});
