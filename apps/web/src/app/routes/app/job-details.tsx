import type { Job } from '@fabric/contract';
import { FileQuestion, RotateCw, ShieldCheck } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { JobStatusBadge } from '@/components/job-status-badge';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useJob } from '@/features/jobs/api/get-job';
import { CancelJobDialog, canCancelJob } from '@/features/jobs/components/cancel-job-dialog';
import { JobParameters } from '@/features/jobs/components/job-parameters';
import { JobProgress } from '@/features/jobs/components/job-progress';
import { JobResult } from '@/features/jobs/components/job-result';
import { JobCost, JobSummary, JobUsage } from '@/features/jobs/components/job-summary';
import { useStoredRole } from '@/hooks/use-stored-session';
import { ApiError, errorMessage } from '@/lib/api-client';
import { shortId } from '@/lib/format';
import { BackLink } from './back-link';

function isMissing(error: unknown): boolean {
  // 400 is a malformed id: for the reader, no such job either.
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/** A job of the signed-in enterprise: where it stands, what it cost, its parameters and result. */
export function JobDetailsRoute() {
  const { jobId = '' } = useParams();
  const role = useStoredRole();
  const isEnterprise = role === 'enterprise';
  // Job data loads only for enterprises (spec section 6).
  const job = useJob(jobId, { enabled: isEnterprise && jobId !== '' });

  return (
    <>
      <BackLink to={paths.jobs.list.href()}>Back to My Jobs</BackLink>
      <PageHeader
        title="Job Details"
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <span>
              Job <span className="font-mono text-foreground">{shortId(jobId)}</span>
            </span>
            {job.data ? <JobStatusBadge status={job.data.status} /> : null}
          </span>
        }
        actions={job.data && canCancelJob(job.data) ? <CancelJobDialog job={job.data} /> : null}
      />
      {!isEnterprise ? (
        <EmptyState icon={ShieldCheck} title="Job details are for enterprises">
          <p>
            A job’s details belong to the enterprise that submitted it. Sign in with that enterprise
            account to follow the job.
          </p>
        </EmptyState>
      ) : job.isPending ? (
        <JobDetailsSkeleton />
      ) : job.isError ? (
        isMissing(job.error) ? (
          <EmptyState
            icon={FileQuestion}
            title="Job not found"
            action={
              <Button asChild variant="outline">
                <Link to={paths.jobs.list.href()}>Back to My Jobs</Link>
              </Button>
            }
          >
            <p>There is no job with this id among the jobs your organization has submitted.</p>
          </EmptyState>
        ) : (
          <Alert variant="destructive">
            <AlertTitle>This job could not be loaded</AlertTitle>
            <AlertDescription>
              <p>{errorMessage(job.error, 'API request failed')}</p>
              <Button
                variant="outline"
                size="sm"
                className="mt-2"
                disabled={job.isFetching}
                onClick={() => void job.refetch()}
              >
                <RotateCw aria-hidden="true" />
                Try again
              </Button>
            </AlertDescription>
          </Alert>
        )
      ) : (
        <JobDetails job={job.data} />
      )}
    </>
  );
}

function JobDetails({ job }: { job: Job }) {
  const hasEnded = job.status === 'failed' || job.status === 'cancelled';
  return (
    <div className="grid gap-6">
      <JobProgress job={job} />
      <div className="grid gap-6 lg:grid-cols-3">
        {/* First in reading order, so phones see the summary before the longer blocks. */}
        <div className="grid content-start gap-6 lg:col-start-3 lg:row-start-1">
          <JobSummary job={job} />
          <JobCost job={job} />
          {job.usage ? <JobUsage usage={job.usage} /> : null}
        </div>
        <div className="grid min-w-0 content-start gap-6 lg:col-span-2 lg:col-start-1 lg:row-start-1">
          {hasEnded && !job.result ? null : <JobResult job={job} />}
          <JobParameters params={job.params} />
        </div>
      </div>
    </div>
  );
}

function JobDetailsSkeleton() {
  return (
    <div className="grid gap-6 lg:grid-cols-3" role="status" aria-busy="true">
      <span className="sr-only">Loading job…</span>
      <div className="grid content-start gap-6 lg:col-start-3 lg:row-start-1">
        <Skeleton className="h-80 rounded-xl" />
        <Skeleton className="h-32 rounded-xl" />
      </div>
      <div className="grid content-start gap-6 lg:col-span-2 lg:col-start-1 lg:row-start-1">
        <Skeleton className="h-64 rounded-xl" />
        <Skeleton className="h-40 rounded-xl" />
      </div>
    </div>
  );
}
