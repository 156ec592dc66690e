#!/usr/bin/env node
// The Fabric node agent's entry. The same file runs in three roles: the agent itself, (with
// --kernel-process) the child process that runs one job's kernel, and the worker threads of a
// parallel kernel, so the single bundled file the server offers for download carries all three.
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { startAgent } from './agent.ts';
import { runKernelProcess } from './kernel-process.ts';
import { runKernelThread } from './kernel-thread.ts';
import { createAgentLog } from './log.ts';
import { HELP_TEXT, parseCommandLine } from './options.ts';
import { loadState } from './state.ts';

async function main(argv: readonly string[]): Promise<number> {
  const command = parseCommandLine(argv);
  if (command.kind === 'help') {
    process.stdout.write(HELP_TEXT);
    return 0;
  }
  if (command.kind === 'error') {
    process.stderr.write(`${command.message}\n\nRun with --help to see every option.\n`);
    return 64;
  }
  const { options } = command;
  const log = createAgentLog(options.logFile);
  let state;
  try {
    state = await loadState(options.dataDir);
  } catch (error) {
    log.error(error instanceof Error ? error.message : String(error));
    await log.close();
    return 1;
  }
  log.info(`Fabric agent starting; device ${state.device_id}, log in ${options.logFile}`);
  const agent = startAgent({
    options,
    state,
    log,
    passwordFromEnvironment: process.env.FABRIC_PASSWORD,
    kernelEntry: { script: process.argv[1] ?? fileURLToPath(import.meta.url) },
  });
  process.on('SIGINT', () => agent.stop());
  process.on('SIGTERM', () => agent.stopNow());
  const code = await agent.done;
  await log.close();
  return code;
}

if (!isMainThread) {
  runKernelThread();
} else if (process.argv.includes('--kernel-process')) {
  runKernelProcess();
} else {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
    // Open handles (a long poll being torn down) must not keep a stopped agent alive.
    setTimeout(() => process.exit(code), 2000).unref();
  });
}
