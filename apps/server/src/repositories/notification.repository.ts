import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { NotificationKind } from '@fabric/contract';
import type { Database } from '../db/connection.ts';
import { notifications, users, type NotificationRow } from '../db/schema.ts';

export interface NewNotification {
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
  /** At most one notification per key (an event seen by two processes notifies once). */
  dedupeKey: string | null;
  isEmailPending: boolean;
  createdAt: Date;
}

export interface PendingEmail {
  id: string;
  email: string;
  title: string;
  body: string;
  link: string | null;
}

export function createNotificationRepository(db: Database) {
  return {
    async insert(notification: NewNotification): Promise<NotificationRow | undefined> {
      const [row] = await db
        .insert(notifications)
        .values(notification)
        .onConflictDoNothing({ target: notifications.dedupeKey })
        .returning();
      return row;
    },

    async listOfUser(
      userId: string,
      page: { limit: number; offset: number },
    ): Promise<{ rows: NotificationRow[]; total: number; unread: number }> {
      const [rows, [totals]] = await Promise.all([
        db
          .select()
          .from(notifications)
          .where(eq(notifications.userId, userId))
          .orderBy(desc(notifications.createdAt), desc(notifications.id))
          .limit(page.limit)
          .offset(page.offset),
        db
          .select({
            total: count(),
            unread: sql<number>`COUNT(*) FILTER (WHERE ${notifications.readAt} IS NULL)`.mapWith(
              Number,
            ),
          })
          .from(notifications)
          .where(eq(notifications.userId, userId)),
      ]);
      return { rows, total: totals?.total ?? 0, unread: totals?.unread ?? 0 };
    },

    async unreadCount(userId: string): Promise<number> {
      const [row] = await db
        .select({ unread: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
      return row?.unread ?? 0;
    },

    /** Marks the user's notification read; false when it is not theirs. */
    async markRead(userId: string, id: string, now: Date): Promise<NotificationRow | undefined> {
      const [row] = await db
        .update(notifications)
        .set({ readAt: sql`COALESCE(${notifications.readAt}, ${now})` })
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
        .returning();
      return row;
    },

    async markAllRead(userId: string, now: Date): Promise<void> {
      await db
        .update(notifications)
        .set({ readAt: now })
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
    },

    /**
     * Takes up to `limit` notifications waiting for their email, locked so another process skips
     * them, and clears their flag; the caller sends them within the same transaction.
     */
    async takePendingEmails(limit: number): Promise<PendingEmail[]> {
      const rows = await db
        .select({
          id: notifications.id,
          email: users.email,
          title: notifications.title,
          body: notifications.body,
          link: notifications.link,
        })
        .from(notifications)
        .innerJoin(users, eq(users.id, notifications.userId))
        .where(eq(notifications.isEmailPending, true))
        .orderBy(notifications.createdAt)
        .limit(limit)
        .for('update', { of: notifications, skipLocked: true });
      for (const row of rows) {
        await db
          .update(notifications)
          .set({ isEmailPending: false })
          .where(eq(notifications.id, row.id));
      }
      return rows;
    },
  };
}

export type NotificationRepository = ReturnType<typeof createNotificationRepository>;
