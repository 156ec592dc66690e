import { drawChallenge, openChallenge, verifyCommittedResult } from '@fabric/compute';
import type { Lease } from '@fabric/contract';
import { randomInt, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { JobOutcome } from './job-messages.ts';
import { startJob } from './job-process.ts';

/** What the server does with a completed outcome: draw a challenge, have it opened, verify. */
function verifyAsServer(target: Lease, outcome: Extract<JobOutcome, { kind: 'completed' }>) {
  const challenge = drawChallenge(target.job_type, target.params, randomInt);
  return verifyCommittedResult(
    target.job_type,
    target.params,
    outcome.result,
    target.challenge_seed,
    {
      commitment: outcome.commitment,
      challenge,
      opening: openChallenge(outcome.witness, challenge),
    },
  );
}

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

function run(target: Lease, timeoutSeconds = 60, maxCores = 1) {
  return startJob(target, {
    entryScript,
    execArgv: ['--import', 'tsx'],
    maxCores,
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

  it('runs fibonacci and reports a result the server will accept', async () => {
    const target = lease('fibonacci', { n: 100 });
    const outcome = await run(target).outcome;
    expect(outcome).toMatchObject({
      kind: 'completed',
      result: { n: 100, value: '354224848179261915075' },
    });
    if (outcome.kind !== 'completed') return;
    expect(verifyAsServer(target, outcome)).toEqual({ ok: true });
  });

  it('spreads prime_sieve over worker threads and gets pi(10^8) right', async () => {
    const target = lease('prime_sieve', { limit: 100_000_000 });
    const progress: number[] = [];
    const outcome = await startJob(target, {
      entryScript,
      execArgv: ['--import', 'tsx'],
      maxCores: 2,
      maxMemoryMb: 512,
      timeoutSeconds: 120,
      onProgress: (fraction) => progress.push(fraction),
    }).outcome;
    expect(outcome).toMatchObject({
      kind: 'completed',
      result: { count: 5_761_455, largest: 99_999_989 },
    });
    expect(progress.length).toBeGreaterThan(0);
    if (outcome.kind !== 'completed') return;
    expect(verifyAsServer(target, outcome)).toEqual({ ok: true });
  });

  it('multiplies seeded matrices over worker threads with a result that passes verification', async () => {
    const target = lease('matrix_multiply', { size: 200, seed: 7 });
    const outcome = await run(target, 120, 2).outcome;
    expect(outcome).toMatchObject({
      kind: 'completed',
      result: { rows: 200, cols: 200, freivalds: { passed: true } },
    });
    if (outcome.kind !== 'completed') return;
    expect(verifyAsServer(target, outcome)).toEqual({ ok: true });
  });

  it('commits to the same product on one thread and on two, so replicas agree bit for bit', async () => {
    const target = lease('matrix_multiply', { rows: 150, inner: 90, cols: 130, seed: 3 });
    const [single, threaded] = await Promise.all([
      run(target, 120, 1).outcome,
      run(target, 120, 2).outcome,
    ]);
    expect(single.kind === 'completed' && single.commitment).toEqual(
      threaded.kind === 'completed' && threaded.commitment,
    );
    expect(single.kind === 'completed' && single.commitment).toMatchObject({
      merkle_root: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
    });
  });

  it('multiplies inline matrices exactly', async () => {
    const outcome = await run(
      lease('matrix_multiply', {
        a: [
          [1, 2],
          [3, 4],
        ],
        b: [
          [5, 6],
          [7, 8],
        ],
      }),
    ).outcome;
    expect(outcome).toMatchObject({
      kind: 'completed',
      result: {
        c: [
          [19, 22],
          [43, 50],
        ],
        checksum: 134,
      },
    });
  });

  it('stops a job that outlives its time limit, as a failure another node may retry', async () => {
    const outcome = await run(lease('prime_sieve', { limit: 90_000_000_000 }), 1).outcome;
    expect(outcome).toMatchObject({ kind: 'failed', retryable: true });
    expect(outcome.kind === 'failed' && outcome.error).toContain('limit of 1 s');
  });
});
