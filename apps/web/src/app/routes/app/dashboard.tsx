import { DASHBOARD_TABLE_ROWS, PRODUCT_NAME } from '@fabric/contract';
import {
  Activity,
  BriefcaseBusiness,
  CircleCheck,
  DollarSign,
  ListChecks,
  Plus,
  Server,
  Wallet,
} from 'lucide-react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { StatCard } from '@/components/stat-card';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useCurrentUser } from '@/features/auth/api/get-current-user';
import { jobCounts, useJobs } from '@/features/jobs/api/get-jobs';
import { JobsTable } from '@/features/jobs/components/jobs-table';
import { useNodes } from '@/features/nodes/api/get-nodes';
import { NodesTable } from '@/features/nodes/components/nodes-table';
import { useBalance } from '@/features/payments/api/get-balance';
import { useStoredEmail, useStoredRole } from '@/hooks/use-stored-session';
import { errorMessage } from '@/lib/api-client';
import { formatUsd } from '@/lib/format';

/** / and /team: the dashboard of the signed-in role. */
export function DashboardRoute() {
  const role = useStoredRole();
  return role === 'enterprise' ? <EnterpriseDashboard /> : <ProviderDashboard />;
}

/** The dashboards' money figures, from the balance call (the ledger). */
function useBalanceFigure() {
  const balance = useBalance();
  const money = (amount: number | undefined) =>
    amount !== undefined ? formatUsd(amount) : balance.isError ? '—' : undefined;
  return {
    value: money(balance.data?.balance),
    // Lifetime earnings include what nodes earned before they were unenrolled, which the node
    // list (enrolled nodes only) would leave out.
    lifetimeEarnings: money(balance.data?.lifetime_earnings),
    held: balance.data?.held_credits ?? 0,
  };
}

function ProviderDashboard() {
  const nodes = useNodes();
  const balance = useBalanceFigure();
  const list = nodes.data;
  const activeNodes = list?.filter((node) => node.status === 'online').length;
  const jobsCompleted = list?.reduce((sum, node) => sum + node.jobs_completed, 0);
  const failed = nodes.isError ? '—' : undefined;

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
      <div className="mb-8 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard title="Active Nodes" icon={Server} value={activeNodes ?? failed} />
        <StatCard title="Jobs Completed" icon={CircleCheck} value={jobsCompleted ?? failed} />
        <StatCard title="Current Balance" icon={Wallet} value={balance.value} />
        <StatCard title="Lifetime Earnings" icon={DollarSign} value={balance.lifetimeEarnings} />
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>My Nodes</CardTitle>
          </CardHeader>
          <CardContent>
            {nodes.isPending ? (
              <Skeleton className="h-24" />
            ) : nodes.isError ? (
              <p className="text-sm text-destructive">
                {errorMessage(nodes.error, 'API request failed')}
              </p>
            ) : nodes.data.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                No nodes yet. Add a node to start earning.
              </p>
            ) : (
              <NodesTable nodes={nodes.data.slice(0, DASHBOARD_TABLE_ROWS)} />
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Recent Activity</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-muted-foreground">
              Your earnings, payouts and every transaction are on the{' '}
              <Link
                to={paths.billing.href()}
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                Earnings
              </Link>{' '}
              page.
            </p>
          </CardContent>
        </Card>
      </div>
    </>
  );
}

function EnterpriseDashboard() {
  const { data: user } = useCurrentUser();
  const storedEmail = useStoredEmail();
  const jobs = useJobs({ page: 1, pageSize: DASHBOARD_TABLE_ROWS });
  const balance = useBalanceFigure();
  const counts = jobs.data ? jobCounts(jobs.data.counts) : undefined;
  const failed = jobs.isError ? '—' : undefined;
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
      <div className="mb-8 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard title="Jobs Running" icon={Activity} value={counts?.running ?? failed} />
        <StatCard title="Jobs Completed" icon={CircleCheck} value={counts?.completed ?? failed} />
        <StatCard
          title="Credit Balance"
          icon={Wallet}
          value={balance.value}
          note={balance.held > 0 ? `${formatUsd(balance.held)} on hold for running jobs` : null}
        />
        <StatCard title="Total Jobs" icon={BriefcaseBusiness} value={counts?.all ?? failed} />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Active Jobs</CardTitle>
        </CardHeader>
        <CardContent>
          {jobs.isPending ? (
            <Skeleton className="h-24" />
          ) : jobs.isError ? (
            <p className="text-sm text-destructive">
              {errorMessage(jobs.error, 'API request failed')}
            </p>
          ) : jobs.data.jobs.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              No jobs yet. Submit a job to run it on the network.
            </p>
          ) : (
            <JobsTable jobs={jobs.data.jobs.slice(0, DASHBOARD_TABLE_ROWS)} showNode={false} />
          )}
        </CardContent>
      </Card>
    </>
  );
}
