import { Bell, CheckCheck } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Pager } from '@/components/pager';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { useNotifications } from '@/features/notifications/api/get-notifications';
import {
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
} from '@/features/notifications/api/mark-read';
import { NotificationItem } from '@/features/notifications/components/notification-item';
import { errorMessage } from '@/lib/api-client';

function NotificationsSkeleton() {
  return (
    <ul aria-label="Loading notifications" className="divide-y">
      {[0, 1, 2, 3].map((row) => (
        <li key={row} className="flex gap-4 px-5 py-4">
          <Skeleton className="size-9 rounded-full" />
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-4 w-3/4" />
          </div>
        </li>
      ))}
    </ul>
  );
}

export function NotificationsRoute() {
  const [page, setPage] = useState(1);
  const notifications = useNotifications(page);
  const markRead = useMarkNotificationRead();
  const markAllRead = useMarkAllNotificationsRead();

  const unread = notifications.data?.unread ?? 0;
  const pageCount = notifications.data
    ? Math.max(1, Math.ceil(notifications.data.total / notifications.data.page_size))
    : 1;

  return (
    <>
      <PageHeader title="Notifications" description="Updates about your account and activity." />
      {notifications.isPending ? (
        <div className="max-w-3xl overflow-hidden rounded-xl border bg-card shadow-sm">
          <NotificationsSkeleton />
        </div>
      ) : notifications.isError ? (
        <Alert variant="destructive" className="max-w-3xl">
          <AlertTitle>Your notifications could not be loaded</AlertTitle>
          <AlertDescription>
            <p>{errorMessage(notifications.error, 'API request failed')}</p>
          </AlertDescription>
        </Alert>
      ) : notifications.data.total === 0 ? (
        <EmptyState icon={Bell} title="No notifications yet" className="max-w-3xl">
          <p>Updates about your nodes, jobs and payments will show up here.</p>
        </EmptyState>
      ) : (
        <section
          aria-labelledby="notifications-heading"
          className="max-w-3xl overflow-hidden rounded-xl border bg-card shadow-sm"
        >
          <div className="flex items-center justify-between gap-3 border-b px-4 py-3 sm:px-5">
            <div className="grid gap-0.5">
              <h2 id="notifications-heading" className="text-sm font-semibold">
                All notifications
              </h2>
              <p className="text-xs text-muted-foreground" aria-live="polite">
                {unread === 0 ? 'All caught up' : `${unread.toString()} unread`}
              </p>
            </div>
            <Button
              variant="outline"
              size="sm"
              disabled={unread === 0 || markAllRead.isPending}
              onClick={() => {
                markAllRead.mutate(undefined, {
                  onError: (error) => {
                    toast.error(errorMessage(error, 'Failed to mark notifications as read'));
                  },
                });
              }}
            >
              {markAllRead.isPending ? <Spinner /> : <CheckCheck aria-hidden="true" />}
              Mark all as read
            </Button>
          </div>
          <ul className="divide-y">
            {notifications.data.notifications.map((notification) => (
              <li key={notification.id}>
                <NotificationItem
                  notification={notification}
                  onMarkRead={(id) => {
                    markRead.mutate(id);
                  }}
                />
              </li>
            ))}
          </ul>
          {pageCount > 1 ? (
            <Pager
              label="Pagination"
              page={page}
              pageCount={pageCount}
              onPageChange={setPage}
              className="border-t px-4 py-3 sm:px-5"
            />
          ) : null}
        </section>
      )}
    </>
  );
}
