import { Bell } from 'lucide-react';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';

export function NotificationsRoute() {
  return (
    <>
      <PageHeader title="Notifications" description="Updates about your account and activity." />
      <EmptyState icon={Bell} title="No notifications yet">
        <p>Updates about your nodes, jobs and payments will show up here.</p>
      </EmptyState>
    </>
  );
}
