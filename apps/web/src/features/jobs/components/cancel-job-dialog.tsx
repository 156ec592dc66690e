import type { Job } from '@fabric/contract';
import { CircleStop } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { shortId } from '@/lib/format';
import { useCancelJob } from '../api/cancel-job';

/** Queued and running jobs can be cancelled. */
export function canCancelJob(job: Pick<Job, 'status'>): boolean {
  return job.status === 'queued' || job.status === 'running';
}

/** The Cancel Job button and the confirmation it opens. */
export function CancelJobDialog({ job }: { job: Pick<Job, 'id' | 'status'> }) {
  const [isOpen, setIsOpen] = useState(false);
  const cancelJob = useCancelJob();
  const isRunning = job.status === 'running';

  // mutateAsync, not mutate's callbacks: the cancelled job re-renders the page without this
  // dialog before the callbacks would run, and TanStack Query drops them when it unmounts.
  async function confirm() {
    try {
      await cancelJob.mutateAsync(job.id);
      toast.success('Job cancelled');
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to cancel job'));
    } finally {
      setIsOpen(false);
    }
  }

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        // Stay open while the request is in flight, so its outcome is not missed.
        if (!cancelJob.isPending) setIsOpen(open);
      }}
    >
      <DialogTrigger asChild>
        <Button
          variant="outline"
          className="border-destructive/40 text-destructive hover:bg-destructive/5 hover:text-destructive"
        >
          <CircleStop aria-hidden="true" />
          Cancel Job
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Cancel job {shortId(job.id)}?</DialogTitle>
          <DialogDescription>
            {isRunning
              ? 'The job stops on its node now and will not be retried. You are billed only for the compute it used up to cancellation.'
              : 'The job leaves the queue and never runs. Nothing is billed for it.'}{' '}
            A cancelled job cannot be resumed; submit it again to run it.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={cancelJob.isPending}>
              Keep Job
            </Button>
          </DialogClose>
          <Button
            variant="destructive"
            onClick={() => void confirm()}
            disabled={cancelJob.isPending}
          >
            {cancelJob.isPending ? <Spinner /> : null}
            Yes, Cancel Job
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
