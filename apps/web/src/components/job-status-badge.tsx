import { ACTIVE_JOB_STATUSES, type JobStatus } from '@fabric/contract';
import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';

const knownStatuses: Record<
  JobStatus,
  { label: string; variant: 'secondary' | 'success' | 'destructive' | 'outline' }
> = {
  queued: { label: 'queued', variant: 'secondary' },
  running: { label: 'running', variant: 'secondary' },
  completed: { label: 'completed', variant: 'success' },
  failed: { label: 'failed', variant: 'destructive' },
  cancelled: { label: 'cancelled', variant: 'outline' },
};

function isKnownStatus(status: string): status is JobStatus {
  return Object.hasOwn(knownStatuses, status);
}

/** queued and running spin (both count as running); any status the client does not know is shown in red as its own text. */
export function JobStatusBadge({ status }: { status: string }) {
  if (!isKnownStatus(status)) {
    return (
      <Badge variant="destructive" data-status="unknown">
        {status}
      </Badge>
    );
  }
  const { label, variant } = knownStatuses[status];
  return (
    <Badge variant={variant} data-status={status}>
      {ACTIVE_JOB_STATUSES.includes(status) ? <Spinner data-testid="status-spinner" /> : null}
      {label}
    </Badge>
  );
}
