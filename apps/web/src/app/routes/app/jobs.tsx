import { ListChecks, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Pager } from '@/components/pager';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { jobCounts, useJobs } from '@/features/jobs/api/get-jobs';
import { JobsTable } from '@/features/jobs/components/jobs-table';
import { useStoredRole } from '@/hooks/use-stored-session';
import { errorMessage } from '@/lib/api-client';

const PAGE_SIZE = 20;

const tabs = [
  { value: 'all', label: 'All', status: undefined },
  { value: 'running', label: 'Running', status: 'running' },
  { value: 'completed', label: 'Completed', status: 'completed' },
  { value: 'failed', label: 'Failed', status: 'failed' },
] as const;
type TabValue = (typeof tabs)[number]['value'];

function isTabValue(value: string): value is TabValue {
  return tabs.some((tab) => tab.value === value);
}

export function JobsRoute() {
  const role = useStoredRole();
  const isEnterprise = role === 'enterprise';
  const [tab, setTab] = useState<TabValue>('all');
  const [page, setPage] = useState(1);
  const status = tabs.find((entry) => entry.value === tab)?.status;
  const jobs = useJobs({ status, page, pageSize: PAGE_SIZE }, { enabled: isEnterprise });
  const counts = jobs.data ? jobCounts(jobs.data.counts) : undefined;
  const pageCount = jobs.data ? Math.max(1, Math.ceil(jobs.data.total / jobs.data.page_size)) : 1;

  return (
    <>
      <PageHeader
        title="My Jobs"
        description="Every compute job you have submitted."
        actions={
          isEnterprise ? (
            <Button asChild>
              <Link to={paths.jobs.submit.href()}>
                <Plus aria-hidden="true" />
                Submit New Job
              </Link>
            </Button>
          ) : null
        }
      />
      {!isEnterprise ? (
        <EmptyState icon={ListChecks} title="Jobs are for enterprises">
          <p>Sign in with an enterprise account to submit and follow compute jobs.</p>
        </EmptyState>
      ) : (
        <Tabs
          value={tab}
          onValueChange={(value) => {
            if (!isTabValue(value)) return;
            setTab(value);
            setPage(1);
          }}
        >
          <TabsList className="grid h-auto w-full grid-cols-2 sm:inline-flex sm:h-10 sm:w-fit">
            {tabs.map((entry) => (
              <TabsTrigger key={entry.value} value={entry.value}>
                {entry.label}
                {counts ? ' ' : null}
                {counts ? (
                  <span className="rounded-full bg-muted px-1.5 text-xs tabular-nums">
                    {counts[entry.value]}
                  </span>
                ) : null}
              </TabsTrigger>
            ))}
          </TabsList>
          {/* One panel per tab (Radix keeps the others hidden), so every tab's aria-controls
              names a panel; the visible one shows the list of the chosen tab. */}
          {tabs.map((entry) => (
            <TabsContent key={entry.value} value={entry.value} className="mt-0">
              {entry.value === tab ? (
                <div className="rounded-xl border bg-card p-2 shadow-sm">
                  {jobs.isPending ? (
                    <Skeleton className="m-2 h-32" />
                  ) : jobs.isError ? (
                    <Alert variant="destructive">
                      <AlertTitle>Your jobs could not be loaded</AlertTitle>
                      <AlertDescription>
                        {errorMessage(jobs.error, 'API request failed')}
                      </AlertDescription>
                    </Alert>
                  ) : jobs.data.jobs.length === 0 ? (
                    <EmptyState icon={ListChecks} title="No Jobs Yet" className="border-0">
                      <p>Submit a job to run it on the network.</p>
                    </EmptyState>
                  ) : (
                    <>
                      <JobsTable jobs={jobs.data.jobs} />
                      <Pager
                        label="Pagination"
                        page={page}
                        pageCount={pageCount}
                        onPageChange={setPage}
                        hasEnds
                        className="px-3 pt-3 pb-1"
                      />
                    </>
                  )}
                </div>
              ) : null}
            </TabsContent>
          ))}
        </Tabs>
      )}
    </>
  );
}
