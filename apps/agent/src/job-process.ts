import type { Lease } from '@fabric/contract';
import { fork } from 'node:child_process';
import type { JobOutcome, KernelProcessMessage, RunJobMessage } from './job-messages.ts';

export interface JobLimits {
  maxCores: number;
  maxMemoryMb: number;
  timeoutSeconds: number;
}

export interface StartJobOptions extends JobLimits {
  /** The agent's entry script; it runs as the kernel process when given --kernel-process. */
  entryScript: string;
  /** Node flags of the kernel process (the tsx loader when running from source). */
  execArgv?: readonly string[];
  onProgress?: (fraction: number, message?: string) => void;
}

export interface RunningJob {
  outcome: Promise<JobOutcome>;
  /** Stop the job now (cancelled, handed back, shutting down); the outcome becomes 'aborted'. */
  abort(reason: string): void;
}

// Heap beyond this share of the memory limit is left for typed arrays (matrices, sieve bits), which
// V8 does not count in the old generation.
const HEAP_SHARE_OF_LIMIT = 0.75;

/**
 * Runs one leased job in a child process: the kernel gets its own heap limit, can be killed at
 * once on cancel or timeout, and its CPU time and peak memory are measured by the OS for exactly
 * that process (its threads included).
 */
export function startJob(lease: Lease, options: StartJobOptions): RunningJob {
  const startedAt = performance.now();
  const heapMb = Math.max(64, Math.floor(options.maxMemoryMb * HEAP_SHARE_OF_LIMIT));
  const child = fork(options.entryScript, ['--kernel-process'], {
    execArgv: [...(options.execArgv ?? process.execArgv), `--max-old-space-size=${heapMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });

  let settled = false;
  let resolveOutcome!: (outcome: JobOutcome) => void;
  const outcome = new Promise<JobOutcome>((resolve) => (resolveOutcome = resolve));
  let cpuMs = 0;
  let peakMemoryBytes = 0;

  const usage = () => ({
    wall_ms: Math.round(performance.now() - startedAt),
    cpu_ms: Math.round(cpuMs),
    peak_memory_bytes: peakMemoryBytes,
  });

  function settle(result: JobOutcome) {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    resolveOutcome(result);
  }

  const timer = setTimeout(() => {
    settle({
      kind: 'failed',
      error: `The job ran longer than this node's limit of ${options.timeoutSeconds} s`,
      retryable: true,
      usage: usage(),
    });
  }, options.timeoutSeconds * 1000);

  child.on('message', (raw) => {
    const message = raw as KernelProcessMessage;
    if (message.type === 'progress') {
      options.onProgress?.(message.fraction, message.message);
      return;
    }
    cpuMs = message.cpuMs;
    peakMemoryBytes = message.peakMemoryBytes;
    if (message.type === 'completed')
      settle({
        kind: 'completed',
        result: message.result,
        commitment: message.commitment,
        witness: message.witness,
        usage: usage(),
      });
    else
      settle({
        kind: 'failed',
        error: message.error,
        retryable: message.retryable,
        usage: usage(),
      });
  });

  child.on('exit', (code, signal) => {
    const how = signal ? `was killed by ${signal}` : `exited with code ${code ?? 'unknown'}`;
    // A V8 heap overflow ends the process before it can report: say what most likely happened.
    const hint =
      signal === null && code !== 0
        ? ` (most likely it ran out of its ${options.maxMemoryMb} MB memory limit)`
        : '';
    settle({
      kind: 'failed',
      error: `The kernel process ${how}${hint}`,
      retryable: true,
      usage: usage(),
    });
  });

  child.on('error', (error) => {
    settle({
      kind: 'failed',
      error: `Could not start the kernel process: ${error.message}`,
      retryable: true,
      usage: usage(),
    });
  });

  const run: RunJobMessage = {
    type: 'run',
    lease,
    maxCores: options.maxCores,
    maxMemoryBytes: options.maxMemoryMb * 1024 * 1024,
  };
  child.send(run);

  return {
    outcome,
    abort(reason) {
      settle({ kind: 'aborted', reason, usage: usage() });
    },
  };
}
