import { PRODUCT_NAME } from '@fabric/contract';
import { BriefcaseBusiness, ListChecks, Plus, Server } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useCurrentUser } from '@/features/auth/api/get-current-user';
import { useStoredEmail, useStoredRole } from '@/hooks/use-stored-session';

/** / and /team: the dashboard of the signed-in role. */
export function DashboardRoute() {
  const role = useStoredRole();
  return role === 'enterprise' ? <EnterpriseDashboard /> : <ProviderDashboard />;
}

function ProviderDashboard() {
  return (
    <>
      <PageHeader
        title="Dashboard"
        description="Your devices, completed jobs and earnings at a glance."
        actions={
          <Button asChild>
            <Link to={paths.nodes.list.href()}>
              <Plus aria-hidden="true" />
              Add Node
            </Link>
          </Button>
        }
      />
      <EmptyState icon={Server} title="Your node overview will appear here">
        <p>
          Once your devices run the {PRODUCT_NAME} agent, this dashboard will show your active
          nodes, jobs completed, current balance and lifetime earnings, with your first five nodes
          listed below.
        </p>
      </EmptyState>
    </>
  );
}

function EnterpriseDashboard() {
  const { data: user } = useCurrentUser();
  const storedEmail = useStoredEmail();
  const heading =
    user?.organization_name || user?.name || user?.email || storedEmail || 'Dashboard';

  return (
    <>
      <PageHeader
        title={heading}
        description={`Run AI workloads on ${PRODUCT_NAME}'s distributed compute network.`}
        actions={
          <>
            <Button asChild>
              <Link to={paths.jobs.submit.href()}>
                <Plus aria-hidden="true" />
                Submit New Job
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={paths.jobs.list.href()}>
                <ListChecks aria-hidden="true" />
                View All Jobs
              </Link>
            </Button>
          </>
        }
      />
      <EmptyState icon={BriefcaseBusiness} title="Your job overview will appear here">
        <p>
          Once you submit jobs, this dashboard will show how many are running and completed, your
          credit balance and total jobs, with your five most recent jobs listed below.
        </p>
      </EmptyState>
    </>
  );
}
