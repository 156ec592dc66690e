import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { DatabaseConnection, Unlisten } from '../db/connection.ts';
import { loggableError } from '../lib/loggable-error.ts';

/**
 * The channel the database triggers of migrations 0002–0004 announce changes on, at commit, to every
 * server process sharing the database.
 */
export const CHANGES_CHANNEL = 'fabric_changes';

const announcementSchema = z.object({
  /** 'session': the sign-in `id` (a refresh-token family) ended; told to the streams, not to users. */
  kind: z.enum(['job', 'node', 'balance', 'notification', 'session']),
  id: z.string(),
  /** Who may see the change: the job's owner and the providers of the nodes involved. */
  users: z.array(z.string().nullable()),
});

/** What a user's event stream is told: which of their records changed (never the record itself). */
export interface Change {
  kind: 'job' | 'node' | 'balance' | 'notification';
  id: string;
}

export interface ChangeSubscriber {
  onChange(change: Change): void;
  /** Notifications may have been missed (the database connection was lost): look at everything again. */
  onResync(): void;
  /** The sign-in `sessionId` of the user ended (signed out, or revoked). */
  onSessionEnded(sessionId: string): void;
  /** The server is shutting down. */
  onClose(): void;
}

/**
 * Routes the database's change announcements to the event streams of the users they concern.
 * Nothing is kept: a stream that was not connected learns what it missed by refetching when it
 * connects again.
 */
export function createChangeFeed(options: {
  connection: DatabaseConnection;
  logger: FastifyBaseLogger;
}) {
  const subscribers = new Map<string, Set<ChangeSubscriber>>();
  let unlisten: Unlisten | undefined;

  function everyone(): ChangeSubscriber[] {
    return [...subscribers.values()].flatMap((set) => [...set]);
  }

  function deliver(payload: string) {
    // The connection calls listeners with '' after reconnecting: anything may have changed.
    if (payload === '') {
      for (const subscriber of everyone()) subscriber.onResync();
      return;
    }
    let announcement: z.infer<typeof announcementSchema>;
    try {
      announcement = announcementSchema.parse(JSON.parse(payload));
    } catch (error) {
      options.logger.warn(loggableError(error), 'Ignored a change announcement it cannot read');
      return;
    }
    const { kind, id } = announcement;
    for (const userId of new Set(announcement.users)) {
      if (userId === null) continue;
      for (const subscriber of subscribers.get(userId) ?? []) {
        if (kind === 'session') subscriber.onSessionEnded(id);
        else subscriber.onChange({ kind, id });
      }
    }
  }

  return {
    async start(): Promise<void> {
      try {
        unlisten = await options.connection.listen(CHANGES_CHANNEL, deliver);
      } catch (error) {
        options.logger.warn(loggableError(error), 'Could not listen for change announcements');
      }
    },

    /** Returns the unsubscribe function. */
    subscribe(userId: string, subscriber: ChangeSubscriber): () => void {
      let set = subscribers.get(userId);
      if (!set) {
        set = new Set();
        subscribers.set(userId, set);
      }
      set.add(subscriber);
      return () => {
        const current = subscribers.get(userId);
        current?.delete(subscriber);
        if (current?.size === 0) subscribers.delete(userId);
      };
    },

    /** Ends every stream so shutdown never waits for one, and stops listening. */
    async stop(): Promise<void> {
      for (const subscriber of everyone()) subscriber.onClose();
      subscribers.clear();
      await unlisten?.();
      unlisten = undefined;
    },
  };
}

export type ChangeFeed = ReturnType<typeof createChangeFeed>;
