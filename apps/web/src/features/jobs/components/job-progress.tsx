import type { Job } from '@fabric/contract';
import { Ban, CircleAlert, Clock } from 'lucide-react';
import { useId } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { formatDateTime } from '@/lib/format';

type JobState = Pick<
  Job,
  | 'status'
  | 'progress'
  | 'progress_message'
  | 'queue_reason'
  | 'queue_expires_at'
  | 'error'
  | 'attempts'
>;

/** Where the job stands: a progress bar while running, why it waits while queued, why it ended when it failed or was cancelled. */
export function JobProgress({ job }: { job: JobState }) {
  if (job.status === 'running') return <RunningProgress job={job} />;
  if (job.status === 'queued') {
    return (
      <Alert variant="info">
        <Clock aria-hidden="true" />
        <AlertTitle>Queued</AlertTitle>
        <AlertDescription>
          <p className="first-letter:uppercase">{job.queue_reason ?? 'Waiting for a node'}</p>
          {job.attempts > 0 ? (
            <p>An earlier attempt did not finish; the job runs again on the next free node.</p>
          ) : null}
          {job.queue_expires_at ? (
            <p>
              If no node picks it up by {formatDateTime(job.queue_expires_at)}, it stops and nothing
              is charged.
            </p>
          ) : null}
        </AlertDescription>
      </Alert>
    );
  }
  if (job.status === 'failed' || job.status === 'cancelled') {
    const isCancelled = job.status === 'cancelled';
    const Icon = isCancelled ? Ban : CircleAlert;
    return (
      <Alert variant="destructive">
        <Icon aria-hidden="true" />
        <AlertTitle>{isCancelled ? 'Job cancelled' : 'Job failed'}</AlertTitle>
        <AlertDescription>
          <p className="break-words first-letter:uppercase">
            {job.error ?? 'No reason was recorded.'}
          </p>
        </AlertDescription>
      </Alert>
    );
  }
  return null;
}

function RunningProgress({ job }: { job: JobState }) {
  const labelId = useId();
  const percent = Math.round(job.progress * 100);
  return (
    <Card className="gap-3 py-5">
      <CardContent className="grid gap-3">
        <div className="flex items-baseline justify-between gap-4">
          <h2 id={labelId} className="font-semibold">
            Progress
          </h2>
          <span className="text-sm font-medium tabular-nums">{percent}%</span>
        </div>
        <Progress value={percent} aria-labelledby={labelId} />
        <p className="text-sm text-muted-foreground first-letter:uppercase" aria-live="polite">
          {job.progress_message ?? 'Running on a node'}
        </p>
      </CardContent>
    </Card>
  );
}
