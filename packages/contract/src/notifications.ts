import { z } from 'zod';
import { idSchema, pageQuerySchema, timestampSchema } from './fields.ts';

export const NOTIFICATION_KINDS = [
  'job_completed',
  'job_failed',
  'credits_low',
  'payout_sent',
  'payout_failed',
  'node_offline',
  'earnings_settled',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const notificationSchema = z.object({
  id: idSchema,
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  /** An app path to open for more (a job, a node, billing), or null. */
  link: z.string().nullable(),
  created_at: timestampSchema,
  read_at: timestampSchema.nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListQuerySchema = z.object({
  page: pageQuerySchema.default(1),
});

export const notificationListResponseSchema = z.object({
  notifications: z.array(notificationSchema),
  unread: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
});
export type NotificationListResponse = z.infer<typeof notificationListResponseSchema>;

export const notificationIdParamsSchema = z.object({ id: idSchema });

export const unreadCountResponseSchema = z.object({ unread: z.number().int() });
