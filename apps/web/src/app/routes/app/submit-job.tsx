import { Send } from 'lucide-react';
import { Navigate } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { useStoredRole } from '@/hooks/use-stored-session';
import { BackLink } from './back-link';

/** Enterprise only: a node provider is sent to the dashboard. */
export function SubmitJobRoute() {
  const role = useStoredRole();
  if (role === 'node_provider') return <Navigate to={paths.home.href()} replace />;
  return (
    <>
      <BackLink to={paths.jobs.list.href()}>Back to My Jobs</BackLink>
      <PageHeader title="Submit New Job" description="Run an AI/ML workload on the network." />
      <EmptyState icon={Send} title="Job submission will open here">
        <p>
          You will choose a job type and priority, give its parameters as JSON, and see the cost
          estimate and your credit balance before you submit.
        </p>
      </EmptyState>
    </>
  );
}
