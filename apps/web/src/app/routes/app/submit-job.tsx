import { Navigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { SubmitJobForm } from '@/features/jobs/components/submit-job-form';
import { CreditBalancePanel } from '@/features/payments/components/credit-balance-panel';
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
      <SubmitJobForm creditBalance={<CreditBalancePanel />} />
    </>
  );
}
