import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConnection, Unlisten } from '../db/connection.ts';
import { loggableError } from '../lib/loggable-error.ts';

/** The PostgreSQL channel on which "there may be work" is announced to every server process. */
export const JOB_QUEUE_CHANNEL = 'fabric_jobs';

export interface WakeupWatch {
  /**
   * Resolves on the first wake-up since the watch began (at once if one already happened), when
   * `timeoutMilliseconds` pass, when `signal` aborts, or when the app shuts down.
   */
  wait(timeoutMilliseconds: number, signal: AbortSignal): Promise<void>;
}

/**
 * Wakes lease requests that are waiting for work. In-process, an event emitter; across processes,
 * PostgreSQL NOTIFY on JOB_QUEUE_CHANNEL (PGlite delivers its own notifications the same way).
 * A wake-up only says "look again": the scheduler's transaction decides who gets what.
 */
export function createJobWakeups(options: {
  connection: DatabaseConnection;
  logger: FastifyBaseLogger;
}) {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let wakeCount = 0;
  let waiting = 0;
  let isStopped = false;
  let unlisten: Unlisten | undefined;

  function wakeHere() {
    wakeCount += 1;
    emitter.emit('wake');
  }

  return {
    /** Listens for other processes' announcements (never fails: the connection retries). */
    async start(): Promise<void> {
      try {
        unlisten = await options.connection.listen(JOB_QUEUE_CHANNEL, wakeHere);
      } catch (error) {
        // PGlite can only fail here if it is already closed; waiting requests still recheck.
        options.logger.warn(loggableError(error), 'Could not listen for job announcements');
      }
    },

    /** Work may be available (a job was submitted or queued again, a node resumed). Call after commit. */
    announce(): void {
      wakeHere();
      options.connection
        .notify(JOB_QUEUE_CHANNEL, '')
        .catch((error: unknown) =>
          options.logger.warn(loggableError(error), 'Could not notify other server processes'),
        );
    },

    /** Start watching before looking for work, so a wake-up in between is not missed. */
    watch(): WakeupWatch {
      const seen = wakeCount;
      return {
        wait(timeoutMilliseconds, signal) {
          if (isStopped || signal.aborted || wakeCount !== seen || timeoutMilliseconds <= 0) {
            return Promise.resolve();
          }
          return new Promise<void>((resolve) => {
            waiting += 1;
            let isDone = false;
            const finish = () => {
              if (isDone) return;
              isDone = true;
              waiting -= 1;
              clearTimeout(timer);
              emitter.off('wake', finish);
              signal.removeEventListener('abort', finish);
              resolve();
            };
            const timer = setTimeout(finish, timeoutMilliseconds);
            emitter.once('wake', finish);
            signal.addEventListener('abort', finish, { once: true });
          });
        },
      };
    },

    /** Lease requests waiting right now (tests wait for one before submitting). */
    waitingCount(): number {
      return waiting;
    },

    get isStopped(): boolean {
      return isStopped;
    },

    /** Ends every wait (their lease requests answer at once) and stops listening. */
    async stop(): Promise<void> {
      isStopped = true;
      emitter.emit('wake');
      await unlisten?.();
      unlisten = undefined;
    },
  };
}

export type JobWakeups = ReturnType<typeof createJobWakeups>;
