import type { Notification, NotificationKind } from '@fabric/contract';
import {
  Banknote,
  CircleCheck,
  CircleX,
  Coins,
  TriangleAlert,
  Wallet,
  WifiOff,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { formatRelativeTime } from './format-relative-time';

const kindStyles: Record<NotificationKind, { icon: LucideIcon; className: string }> = {
  job_completed: { icon: CircleCheck, className: 'bg-success/10 text-success' },
  job_failed: { icon: CircleX, className: 'bg-destructive/10 text-destructive' },
  credits_low: { icon: Coins, className: 'bg-warning/15 text-warning-foreground' },
  payout_sent: { icon: Banknote, className: 'bg-success/10 text-success' },
  payout_failed: { icon: TriangleAlert, className: 'bg-destructive/10 text-destructive' },
  node_offline: { icon: WifiOff, className: 'bg-warning/15 text-warning-foreground' },
  earnings_settled: { icon: Wallet, className: 'bg-info/10 text-info' },
};

const rowClassName =
  'flex w-full gap-3 px-4 py-4 text-left outline-none sm:gap-4 sm:px-5 focus-visible:ring-3 focus-visible:ring-ring/50 focus-visible:ring-inset';

function NotificationContent({ notification }: { notification: Notification }) {
  const isUnread = notification.read_at === null;
  const { icon: Icon, className } = kindStyles[notification.kind];
  const relative = formatRelativeTime(notification.created_at);
  const absolute = formatDateTime(notification.created_at);

  return (
    <>
      <span
        aria-hidden="true"
        className={cn('flex size-9 shrink-0 items-center justify-center rounded-full', className)}
      >
        <Icon className="size-4.5" />
      </span>
      <span className="grid min-w-0 flex-1 gap-1">
        <span
          className={cn(
            'text-sm leading-snug',
            isUnread ? 'font-semibold text-foreground' : 'font-medium text-foreground/90',
          )}
        >
          {isUnread ? <span className="sr-only">Unread: </span> : null}
          {notification.title}
        </span>
        <span className="text-sm leading-relaxed text-muted-foreground">{notification.body}</span>
        <time
          dateTime={notification.created_at}
          title={absolute}
          className="text-xs text-muted-foreground"
        >
          {relative ?? absolute}
        </time>
      </span>
      <span className="flex w-2.5 shrink-0 justify-center pt-1.5">
        {isUnread ? <span aria-hidden="true" className="size-2.5 rounded-full bg-primary" /> : null}
      </span>
    </>
  );
}

/**
 * One notification. With a link it opens it (and marks it read on the way); an unread one without
 * a link is a button that marks it read; a read one without a link is plain text.
 */
export function NotificationItem({
  notification,
  onMarkRead,
}: {
  notification: Notification;
  onMarkRead: (id: string) => void;
}) {
  const isUnread = notification.read_at === null;
  const markRead = () => {
    if (isUnread) onMarkRead(notification.id);
  };
  const content: ReactNode = <NotificationContent notification={notification} />;
  const className = cn(
    rowClassName,
    isUnread ? 'bg-primary/[0.04]' : null,
    notification.link || isUnread ? 'cursor-pointer transition-colors hover:bg-accent/60' : null,
  );

  if (notification.link) {
    return (
      <Link to={notification.link} onClick={markRead} className={className}>
        {content}
      </Link>
    );
  }
  if (isUnread) {
    return (
      <button type="button" onClick={markRead} className={className}>
        {content}
      </button>
    );
  }
  return <div className={className}>{content}</div>;
}
