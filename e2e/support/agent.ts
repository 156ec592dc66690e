import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from './server.ts';

export interface RunningAgent {
  dataDir: string;
  output: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  signal: (name: NodeJS.Signals) => void;
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<void>;
  process: ChildProcess;
}

/**
 * Starts the real agent CLI as a provider would run it from the repo (`npm run agent -- ...`),
 * enrolling with the account (email + FABRIC_PASSWORD) or with a one-time enrollment code.
 */
export function startAgentProcess(options: {
  serverUrl: string;
  email?: string;
  password?: string;
  code?: string;
  name?: string;
  maxCores?: number;
  dataDir?: string;
  extraArgs?: string[];
  /** A bundled agent file to run with plain node instead of the sources through tsx. */
  bundle?: string;
}): RunningAgent {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'fabric-agent-'));
  const entry = options.bundle ? [options.bundle] : ['--import', 'tsx', 'apps/agent/src/cli.ts'];
  const args = [
    ...entry,
    '--server',
    options.serverUrl,
    ...(options.code ? ['--code', options.code] : ['--email', options.email ?? '']),
    '--data-dir',
    dataDir,
    '--max-cores',
    String(options.maxCores ?? 1),
    '--name',
    options.name ?? 'test-node',
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...(options.password === undefined ? {} : { FABRIC_PASSWORD: options.password }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );

  return {
    dataDir,
    output: () => output,
    exited,
    process: child,
    signal: (name) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(name);
    },
    waitForOutput: async (pattern, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(output)) {
        if (child.exitCode !== null)
          throw new Error(
            `agent exited (${child.exitCode}) before printing ${pattern}:\n${output}`,
          );
        if (Date.now() > deadline)
          throw new Error(`agent did not print ${pattern} within ${timeoutMs} ms:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
