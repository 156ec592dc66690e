import type { Job } from '@fabric/contract';
import { CircleStop } from 'lucide-react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { shortId } from '@/lib/format';
import { useCancelJob } from '../api/cancel-job';

/** Queued and running jobs can be cancelled. */
export function canCancelJob(job: Pick<Job, 'status'>): boolean {
  return job.status === 'queued' || job.status === 'running';
}

/** The Cancel Job button and the confirmation it opens. */
export function CancelJobDialog({ job }: { job: Pick<Job, 'id' | 'status'> }) {
  const cancelJob = useCancelJob();
  const isRunning = job.status === 'running';

  return (
    <ConfirmDialog
      trigger={
        <Button
          variant="outline"
          className="border-destructive/40 text-destructive hover:bg-destructive/5 hover:text-destructive"
        >
          <CircleStop aria-hidden="true" />
          Cancel Job
        </Button>
      }
      title={`Cancel job ${shortId(job.id)}?`}
      description={
        <>
          {isRunning
            ? 'The job stops on its node now and will not be retried. You are billed only for the compute it used up to cancellation.'
            : 'The job leaves the queue and never runs. Nothing is billed for it.'}{' '}
          A cancelled job cannot be resumed; submit it again to run it.
        </>
      }
      keepLabel="Keep Job"
      confirmLabel="Yes, Cancel Job"
      isPending={cancelJob.isPending}
      onConfirm={async () => {
        try {
          await cancelJob.mutateAsync(job.id);
          toast.success('Job cancelled');
        } catch (error) {
          toast.error(errorMessage(error, 'Failed to cancel job'));
        }
        // Closed either way: the page shows the job as it now is.
        return true;
      }}
    />
  );
}
