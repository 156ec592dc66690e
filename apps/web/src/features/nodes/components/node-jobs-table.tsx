import type { AttemptOutcome, NodeJobAttempt } from '@fabric/contract';
import { ListChecks } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime, formatDuration, formatJobType, formatUsd, shortId } from '@/lib/format';

type BadgeVariant = 'secondary' | 'success' | 'warning' | 'destructive' | 'outline';

const outcomes: Record<AttemptOutcome, { variant: BadgeVariant; description: string }> = {
  completed: { variant: 'success', description: 'The node finished the job.' },
  failed: { variant: 'destructive', description: 'The job failed on this node.' },
  rejected: { variant: 'destructive', description: 'The result did not pass verification.' },
  expired: { variant: 'warning', description: 'The node stopped reporting and its lease ran out.' },
  released: { variant: 'outline', description: 'Handed back to the queue unfinished.' },
  cancelled: { variant: 'outline', description: 'The job was cancelled while it ran.' },
};

/** How one attempt ended; a spinning "running" while it still runs. */
export function AttemptOutcomeBadge({ outcome }: { outcome: AttemptOutcome | null }) {
  if (outcome === null) {
    return (
      <Badge variant="secondary" data-outcome="running">
        <Spinner />
        running
      </Badge>
    );
  }
  const { variant, description } = outcomes[outcome];
  return (
    <Badge variant={variant} data-outcome={outcome} title={description}>
      {outcome}
    </Badge>
  );
}

function attemptDuration(attempt: NodeJobAttempt): string {
  if (attempt.ended_at === null) return 'running';
  return formatDuration(Date.parse(attempt.ended_at) - Date.parse(attempt.started_at));
}

/** Phones: one stacked entry per attempt instead of seven columns. */
function NodeJobsList({ attempts }: { attempts: NodeJobAttempt[] }) {
  return (
    <ul className="divide-y sm:hidden" aria-label="Recent jobs on this node, newest first">
      {attempts.map((attempt) => (
        <li
          key={`${attempt.job_id}-${attempt.attempt_number}`}
          className="flex flex-col gap-1.5 py-3 first:pt-0 last:pb-0"
        >
          <div className="flex items-start justify-between gap-3">
            <span className="min-w-0 font-medium">{formatJobType(attempt.job_type)}</span>
            <AttemptOutcomeBadge outcome={attempt.outcome} />
          </div>
          <div className="flex items-center justify-between gap-3 text-xs text-muted-foreground">
            <span>
              <span className="font-mono" title={attempt.job_id}>
                {shortId(attempt.job_id)}
              </span>{' '}
              · attempt #{attempt.attempt_number}
            </span>
            <span className="text-sm font-medium text-foreground tabular-nums">
              {formatUsd(attempt.earned)}
            </span>
          </div>
          <p className="text-xs text-muted-foreground">
            {formatDateTime(attempt.started_at)} · {attemptDuration(attempt)}
          </p>
          {attempt.error ? (
            <p className="text-xs break-words text-muted-foreground">{attempt.error}</p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** The node's latest job attempts, newest first: a table, stacked entries on phones. */
export function NodeJobsTable({ attempts }: { attempts: NodeJobAttempt[] }) {
  const captionId = useId();
  if (attempts.length === 0) {
    return (
      <div className="flex flex-col items-center rounded-lg border border-dashed px-6 py-10 text-center">
        <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-accent text-accent-foreground">
          <ListChecks aria-hidden="true" className="size-5" />
        </div>
        <p className="font-medium">No jobs yet</p>
        <p className="mt-1 max-w-sm text-sm text-muted-foreground">
          Jobs appear here once this node runs one: each attempt with its outcome, duration and
          earnings.
        </p>
      </div>
    );
  }
  return (
    <>
      <NodeJobsList attempts={attempts} />
      {/* Focusable so keyboard users can scroll the table sideways when it is wider than its card. */}
      <div
        className="-mx-6 hidden overflow-x-auto px-6 sm:block"
        role="region"
        aria-labelledby={captionId}
        tabIndex={0}
      >
        <table className="w-full min-w-[44rem] text-sm">
          <caption id={captionId} className="sr-only">
            Recent jobs on this node, newest first
          </caption>
          <thead className="text-left text-muted-foreground">
            <tr className="border-b">
              <th scope="col" className="px-3 py-2 font-medium">
                Job ID
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Type
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Attempt
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Started
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Duration
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Outcome
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Earned
              </th>
            </tr>
          </thead>
          <tbody>
            {attempts.map((attempt) => (
              <tr
                key={`${attempt.job_id}-${attempt.attempt_number}`}
                className="border-b align-top last:border-0"
              >
                <td className="px-3 py-2 font-mono text-xs leading-5">
                  <span title={attempt.job_id}>{shortId(attempt.job_id)}</span>
                </td>
                <td className="px-3 py-2 whitespace-nowrap">{formatJobType(attempt.job_type)}</td>
                <td className="px-3 py-2 text-right tabular-nums">#{attempt.attempt_number}</td>
                <td className="px-3 py-2 whitespace-nowrap">
                  {formatDateTime(attempt.started_at)}
                </td>
                <td className="px-3 py-2 whitespace-nowrap tabular-nums">
                  {attemptDuration(attempt)}
                </td>
                <td className="px-3 py-2">
                  <AttemptOutcomeBadge outcome={attempt.outcome} />
                  {attempt.error ? (
                    <p
                      className="mt-1 max-w-56 truncate text-xs text-muted-foreground"
                      title={attempt.error}
                    >
                      {attempt.error}
                    </p>
                  ) : null}
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{formatUsd(attempt.earned)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
