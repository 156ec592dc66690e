import type { Lease } from '@fabric/contract';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startJob } from './job-process.ts';

const entryScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts');

function lease(jobType: Lease['job_type'], params: Record<string, unknown>): Lease {
  return {
    lease_id: randomUUID(),
    job_id: randomUUID(),
    job_type: jobType,
    params,
    priority: 0,
    attempt: 1,
    expires_at: new Date(Date.now() + 20_000).toISOString(),
    challenge_seed: 12345,
  };
}

function run(target: Lease, timeoutSeconds = 60) {
  return startJob(target, {
    entryScript,
    execArgv: ['--import', 'tsx'],
    maxCores: 1,
    maxMemoryMb: 256,
    timeoutSeconds,
  });
}

describe('startJob (kernel in a child process)', () => {
  it('refuses bad params before any work, as a failure that would recur on any node', async () => {
    const outcome = await run(lease('fibonacci', { n: -1 })).outcome;
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: 'Invalid params: params.n: n must be at least 0',
      retryable: false,
    });
    expect(outcome.usage.wall_ms).toBeGreaterThan(0);
    expect(outcome.usage.cpu_ms).toBeGreaterThan(0);
    expect(outcome.usage.peak_memory_bytes).toBeGreaterThan(1024 * 1024);
  });

  it('stops a job at once when aborted', async () => {
    const job = run(lease('fibonacci', { n: 10 }));
    job.abort('cancelled');
    expect(await job.outcome).toMatchObject({ kind: 'aborted', reason: 'cancelled' });
  });
});
