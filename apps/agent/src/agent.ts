import {
  HEARTBEAT_INTERVAL_SECONDS,
  MAX_LEASE_WAIT_SECONDS,
  SHORT_ID_LENGTH,
  type JobUsage,
  type Lease,
} from '@fabric/contract';
import { openChallenge } from '@fabric/compute';
import { ensureEnrolled, forgetEnrollment } from './enroll.ts';
import { readHardwareInfo } from './hardware.ts';
import type { JobOutcome } from './job-messages.ts';
import { startJob, type RunningJob } from './job-process.ts';
import type { AgentLog } from './log.ts';
import type { AgentOptions } from './options.ts';
import { ServerClient, ServerError } from './server-client.ts';
import type { AgentState } from './state.ts';

export interface AgentDependencies {
  options: AgentOptions;
  state: AgentState;
  log: AgentLog;
  passwordFromEnvironment: string | undefined;
  /** How to start the kernel process (see job-process.ts). */
  kernelEntry: { script: string; execArgv?: readonly string[] };
}

export interface AgentHandle {
  /** Resolves with the exit code when the agent has stopped. */
  done: Promise<number>;
  /** First call: finish the current job, take no more. Second call: hand the job back now. */
  stop(): void;
  /** Hand the current job back and stop at once (SIGTERM). */
  stopNow(): void;
}

const RETRY_DELAYS_MS = [500, 1000, 2000, 5000, 10_000];
const PROGRESS_REPORT_INTERVAL_MS = 1000;

const shortId = (id: string) => id.slice(0, SHORT_ID_LENGTH);
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** The session of an agent: enroll, then heartbeat and lease-run-report until stopped. */
export function startAgent(deps: AgentDependencies): AgentHandle {
  const { options, state, log } = deps;
  const client = new ServerClient(options.server);
  const stopping = new AbortController();
  let handBackNow = false;
  // Changed from the heartbeat loop while the work loop awaits: kept in an object so neither
  // loop reads a stale narrowed copy.
  const session = { isPaused: false, isUnenrolled: false };
  let current: { lease: Lease; run: RunningJob } | null = null;
  let leaseRequest: AbortController | null = null;
  let wakeWorkLoop: () => void = () => undefined;

  function requestStop(immediately: boolean) {
    if (immediately || stopping.signal.aborted) {
      handBackNow = true;
      current?.run.abort('handed back');
    } else if (current) {
      log.info(
        `Finishing job ${shortId(current.lease.job_id)} before stopping; press Ctrl-C again to hand it back now.`,
      );
    }
    stopping.abort();
    leaseRequest?.abort();
    wakeWorkLoop();
  }

  async function withRetries<T>(what: string, call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await call();
      } catch (error) {
        const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)] ?? 10_000;
        if (!(error instanceof ServerError) || !error.isTransient || attempt >= 8) throw error;
        log.warn(`${what} failed (${error.message}); retrying in ${delay / 1000} s`);
        await sleep(delay);
      }
    }
  }

  function handleAuthLoss(error: unknown): boolean {
    if (error instanceof ServerError && error.status === 401) {
      session.isUnenrolled = true;
      log.error(
        `The server no longer accepts this node (${error.message}). Run the agent with a new --code from Add Node (or --email) to enroll again.`,
      );
      requestStop(true);
      return true;
    }
    return false;
  }

  async function heartbeatLoop() {
    while (!session.isUnenrolled && !(stopping.signal.aborted && !current)) {
      try {
        const answer = await client.heartbeat({
          hardware_info: readHardwareInfo(options.maxCores),
          running_job_ids: current ? [current.lease.job_id] : [],
        });
        const wasPaused = session.isPaused;
        session.isPaused = answer.status === 'paused';
        if (session.isPaused !== wasPaused) {
          log.info(
            session.isPaused
              ? 'Paused by the server: no new jobs until resumed.'
              : 'Resumed: taking jobs again.',
          );
          if (session.isPaused) leaseRequest?.abort();
          wakeWorkLoop();
        }
        if (current && answer.abort_job_ids.includes(current.lease.job_id)) {
          current.run.abort('cancelled');
        }
      } catch (error) {
        if (handleAuthLoss(error)) return;
        log.warn(`Heartbeat failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      await sleep(
        HEARTBEAT_INTERVAL_SECONDS * 1000,
        stopping.signal.aborted ? undefined : stopping.signal,
      );
    }
  }

  async function report(lease: Lease, outcome: JobOutcome) {
    const id = shortId(lease.job_id);
    const seconds = (outcome.usage.wall_ms / 1000).toFixed(1);
    if (outcome.kind === 'completed') {
      // Commit first; the challenge the answer carries was drawn after the commitment was stored.
      const { challenge } = await withRetries('Reporting the result', () =>
        client.commit(lease.job_id, {
          lease_id: lease.lease_id,
          result: outcome.result,
          commitment: outcome.commitment,
          usage: outcome.usage,
        }),
      );
      const opening = openChallenge(outcome.witness, challenge);
      const answer = await withRetries('Opening the challenge', () =>
        client.complete(lease.job_id, { lease_id: lease.lease_id, opening }),
      );
      if (answer.accepted) {
        log.info(
          `Completed ${lease.job_type} job ${id} (${usageSummary(outcome.usage)}); the server verified the result.`,
          { usage: outcome.usage },
        );
      } else {
        log.warn(
          `The server refused the result of job ${id}: ${answer.reason ?? 'no reason given'}`,
        );
      }
    } else if (outcome.kind === 'failed') {
      await withRetries('Reporting the failure', () =>
        client.fail(lease.job_id, {
          lease_id: lease.lease_id,
          error: outcome.error,
          retryable: outcome.retryable,
          usage: outcome.usage,
        }),
      );
      log.warn(`Job ${id} failed after ${seconds} s: ${outcome.error}`);
    } else if (outcome.reason === 'handed back') {
      await withRetries('Handing the job back', () => client.release(lease.job_id, lease.lease_id));
      log.info(`Handed job ${id} back to the network.`);
    } else {
      log.info(`Job ${id} was ${outcome.reason}; stopped it.`);
    }
  }

  async function runLease(lease: Lease) {
    const id = shortId(lease.job_id);
    log.info(`Running ${lease.job_type} job ${id} (attempt ${lease.attempt}).`, {
      job_id: lease.job_id,
      lease_id: lease.lease_id,
    });
    log.status(`Running ${lease.job_type} job ${id}: starting`);
    let lastSent = 0;
    let pendingProgress: Promise<unknown> = Promise.resolve();
    const run = startJob(lease, {
      maxCores: options.maxCores,
      maxMemoryMb: options.maxMemoryMb,
      timeoutSeconds: options.jobTimeoutSeconds,
      entryScript: deps.kernelEntry.script,
      ...(deps.kernelEntry.execArgv ? { execArgv: deps.kernelEntry.execArgv } : {}),
      onProgress(fraction, message) {
        log.status(
          `Running ${lease.job_type} job ${id}: ${Math.round(fraction * 100)}%${message ? ` ${message}` : ''}`,
        );
        const now = Date.now();
        if (now - lastSent < PROGRESS_REPORT_INTERVAL_MS) return;
        lastSent = now;
        pendingProgress = client
          .progress(lease.job_id, {
            lease_id: lease.lease_id,
            progress: fraction,
            ...(message ? { message } : {}),
          })
          .then((answer) => {
            if (answer.abort) run.abort('cancelled');
          })
          .catch((error: unknown) => {
            // A lease taken away (409) or a cancelled job means stop; anything else is reported by the heartbeat.
            if (error instanceof ServerError && (error.status === 409 || error.status === 404))
              run.abort('cancelled');
          });
      },
    });
    current = { lease, run };
    if (handBackNow) run.abort('handed back');
    const outcome = await run.outcome;
    await pendingProgress;
    current = null;
    try {
      await report(lease, outcome);
    } catch (error) {
      if (!handleAuthLoss(error)) {
        log.error(
          `Could not report job ${id}: ${error instanceof Error ? error.message : String(error)}. Its lease will expire and the network will retry it.`,
        );
      }
    }
  }

  async function workLoop() {
    while (!stopping.signal.aborted && !session.isUnenrolled) {
      if (session.isPaused) {
        log.status('Paused by the server');
        await new Promise<void>((resolve) => (wakeWorkLoop = resolve));
        continue;
      }
      log.status('Idle: waiting for work');
      leaseRequest = new AbortController();
      let lease: Lease | null;
      try {
        const answer = await client.lease(
          { wait_seconds: MAX_LEASE_WAIT_SECONDS - 5 },
          leaseRequest.signal,
        );
        lease = answer.lease;
      } catch (error) {
        if (leaseRequest.signal.aborted) continue;
        if (handleAuthLoss(error)) return;
        log.warn(
          `Asking for work failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        log.status('Reconnecting…');
        await sleep(RETRY_DELAYS_MS[2] ?? 2000, stopping.signal);
        continue;
      } finally {
        leaseRequest = null;
      }
      if (lease) await runLease(lease);
    }
  }

  const done = (async () => {
    try {
      await ensureEnrolled({
        options,
        state,
        client,
        log,
        passwordFromEnvironment: deps.passwordFromEnvironment,
      });
    } catch (error) {
      log.error(error instanceof Error ? error.message : String(error));
      return 1;
    }
    log.info(
      `Connected to ${options.server}; using up to ${options.maxCores} cores and ${options.maxMemoryMb} MB per job.`,
    );
    const heartbeats = heartbeatLoop();
    await workLoop();
    stopping.abort();
    await heartbeats;
    if (session.isUnenrolled) {
      await forgetEnrollment(options, state);
      return 2;
    }
    log.info('Stopped.');
    return 0;
  })();

  return { done, stop: () => requestStop(false), stopNow: () => requestStop(true) };
}

function usageSummary(usage: JobUsage): string {
  return `${usage.wall_ms} ms wall, ${usage.cpu_ms} ms CPU, ${Math.round(usage.peak_memory_bytes / 2 ** 20)} MB peak`;
}
