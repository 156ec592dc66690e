import { jobParamsSchemas } from '@fabric/contract';
import type { KernelProcessMessage, RunJobMessage } from './job-messages.ts';
import { KernelUnavailableError, runLeasedKernel } from './kernels.ts';

// The child side of job-process.ts: receives one lease, checks its params before any work,
// runs the kernel, reports progress and the result with the OS's measure of its CPU and memory.

class MemoryLimitError extends Error {}

function measuredUsage() {
  const usage = process.resourceUsage();
  return {
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    // maxRSS is in kilobytes.
    peakMemoryBytes: usage.maxRSS * 1024,
  };
}

function send(message: KernelProcessMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) {
      resolve();
      return;
    }
    process.send(message, undefined, undefined, () => resolve());
  });
}

async function runJob({
  lease,
  maxCores,
  maxMemoryBytes,
}: RunJobMessage): Promise<KernelProcessMessage> {
  const schema = jobParamsSchemas[lease.job_type];
  const parsed = schema.safeParse(lease.params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `params.${issue.path.join('.')}: ` : '';
    return {
      type: 'failed',
      error: `Invalid params: ${where}${issue?.message ?? 'not accepted'}`,
      retryable: false,
      ...measuredUsage(),
    };
  }
  let lastReport = 0;
  try {
    const output = await runLeasedKernel(lease, {
      maxCores,
      // This process's own entry script doubles as the entry of its kernel threads.
      threadEntry: process.argv[1] ?? '',
      onProgress(fraction, message) {
        const now = Date.now();
        if (now - lastReport < 200 && fraction < 1) return;
        lastReport = now;
        void send({
          type: 'progress',
          fraction: Math.min(1, Math.max(0, fraction)),
          ...(message ? { message } : {}),
        });
      },
      shouldStop() {
        // The agent died (SIGKILL, crash): this process was handed to init. Nobody will read the
        // result and the job is being retried elsewhere, so stop using the provider's CPU.
        if (process.ppid !== parentPid) process.exit(1);
        if (process.memoryUsage.rss() > maxMemoryBytes) {
          throw new MemoryLimitError(
            `The job needed more than this node's memory limit of ${Math.round(maxMemoryBytes / 2 ** 20)} MB`,
          );
        }
        return false;
      },
    });
    return { type: 'completed', ...output, ...measuredUsage() };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Errors of the kernel's own making (bad input it only found while running) recur anywhere;
    // a memory limit or a missing kernel is this node's limitation.
    const retryable = error instanceof MemoryLimitError || error instanceof KernelUnavailableError;
    return { type: 'failed', error: message, retryable, ...measuredUsage() };
  }
}

const parentPid = process.ppid;

export function runKernelProcess(): void {
  process.once('disconnect', () => process.exit(1));
  process.once('message', (raw) => {
    void runJob(raw as RunJobMessage)
      .then(send)
      .finally(() => process.exit(0));
  });
}
