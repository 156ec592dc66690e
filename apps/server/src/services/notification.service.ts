import type { MessageResponse, Notification, NotificationListResponse } from '@fabric/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { NotificationRow } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { notFound } from '../lib/http-errors.ts';
import { loggableError } from '../lib/loggable-error.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Repositories } from '../repositories/index.ts';

export const NOTIFICATION_PAGE_SIZE = 20;
const EMAILS_PER_ROUND = 20;

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    created_at: row.createdAt.toISOString(),
    read_at: row.readAt?.toISOString() ?? null,
  };
}

/** A user's notifications, and the dispatcher that emails them to users who asked for email. */
export function createNotificationService(options: {
  repositories: Repositories;
  mailer: Mailer;
  publicUrl: string;
  clock: Clock;
  logger: FastifyBaseLogger;
}) {
  const { repositories, mailer, publicUrl, clock, logger } = options;

  return {
    async list(userId: string, page: number): Promise<NotificationListResponse> {
      const { rows, total, unread } = await repositories.notifications.listOfUser(userId, {
        limit: NOTIFICATION_PAGE_SIZE,
        offset: (page - 1) * NOTIFICATION_PAGE_SIZE,
      });
      return {
        notifications: rows.map(toNotification),
        unread,
        page,
        page_size: NOTIFICATION_PAGE_SIZE,
        total,
      };
    },

    async unreadCount(userId: string): Promise<{ unread: number }> {
      return { unread: await repositories.notifications.unreadCount(userId) };
    },

    async markRead(userId: string, id: string): Promise<Notification> {
      const row = await repositories.notifications.markRead(userId, id, clock());
      if (!row) throw notFound('Notification not found');
      return toNotification(row);
    },

    async markAllRead(userId: string): Promise<MessageResponse> {
      await repositories.notifications.markAllRead(userId, clock());
      return { message: 'All notifications marked as read' };
    },

    /**
     * Emails waiting notifications. Each is taken under a row lock (other processes skip it) and
     * its flag cleared in the same transaction as the send, so it goes out at most once; a send
     * that fails rolls the flag back for the next round.
     */
    async dispatchEmails(): Promise<number> {
      let sent = 0;
      for (;;) {
        const count = await repositories
          .transaction(async (transaction) => {
            const pending = await transaction.notifications.takePendingEmails(EMAILS_PER_ROUND);
            for (const email of pending) {
              const link = email.link ? `\n\n${new URL(email.link, publicUrl).href}` : '';
              await mailer.send({
                to: email.email,
                subject: email.title,
                text: `${email.body}${link}\n\nYou can turn these emails off in Settings.`,
              });
            }
            return pending.length;
          })
          .catch((error: unknown) => {
            logger.warn(loggableError(error), 'Notification emails could not be sent');
            return 0;
          });
        sent += count;
        if (count < EMAILS_PER_ROUND) return sent;
      }
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
