import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './options.ts';

describe('parseCommandLine', () => {
  it('asks for --help to list every flag', () => {
    expect(parseCommandLine(['--help'])).toEqual({ kind: 'help' });
  });

  it('requires --server and says how to give it', () => {
    expect(parseCommandLine(['--email', 'a@b.co'])).toEqual({
      kind: 'error',
      message: '--server is required, e.g. --server http://localhost:8080',
    });
  });

  it('never takes the password as a flag', () => {
    const parsed = parseCommandLine(['--server', 'http://localhost:8080', '--password', 'secret']);
    expect(parsed.kind).toBe('error');
    expect(parsed.kind === 'error' && parsed.message).toContain('FABRIC_PASSWORD');
  });

  it('names the flag at fault', () => {
    const parsed = parseCommandLine(['--server', 'http://localhost:8080', '--max-cores', '0']);
    expect(parsed).toEqual({ kind: 'error', message: '--max-cores must be at least 1' });
    expect(parseCommandLine(['--server', 'nope'])).toEqual({
      kind: 'error',
      message: '--server must be a URL such as http://localhost:8080',
    });
    expect(parseCommandLine(['--server', 'http://x', '--bogus']).kind).toBe('error');
  });

  it('fills defaults: data dir under the home folder, log inside it, trailing slash dropped', () => {
    const parsed = parseCommandLine([
      '--server',
      'http://localhost:8080/',
      '--data-dir',
      '/tmp/fabric-agent-x',
    ]);
    expect(parsed).toMatchObject({
      kind: 'run',
      options: {
        server: 'http://localhost:8080',
        dataDir: '/tmp/fabric-agent-x',
        logFile: '/tmp/fabric-agent-x/agent.log',
        maxMemoryMb: 2048,
        jobTimeoutSeconds: 3600,
      },
    });
  });

  it('takes a one-time enrollment code as typed, and names --code when it is not one', () => {
    expect(
      parseCommandLine(['--server', 'http://localhost:8080', '--code', 'abcd efgh-jkmn']),
    ).toMatchObject({ kind: 'run', options: { code: 'ABCDEFGHJKMN' } });
    expect(parseCommandLine(['--server', 'http://localhost:8080', '--code', '1234'])).toEqual({
      kind: 'error',
      message: '--code must be the 12-character code from Add Node, like ABCD-EFGH-JKMN',
    });
  });

  it('refuses --code together with --email', () => {
    const parsed = parseCommandLine([
      '--server',
      'http://localhost:8080',
      '--code',
      'ABCD-EFGH-JKMN',
      '--email',
      'a@b.co',
    ]);
    expect(parsed).toEqual({
      kind: 'error',
      message: 'Give --code or --email, not both: the code enrolls the device on its own.',
    });
  });
});
