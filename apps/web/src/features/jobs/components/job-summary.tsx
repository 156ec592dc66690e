import { PRIORITY_LABELS, type Job } from '@fabric/contract';
import { useEffect, useState, type ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  formatBytes,
  formatDateTime,
  formatDuration,
  formatJobType,
  formatUsd,
  shortId,
} from '@/lib/format';

/** The current time, renewed every second while `isTicking`. */
function useNow(isTicking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!isTicking) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [isTicking]);
  return now;
}

function elapsed(fromIso: string | null, to: number): number | null {
  if (!fromIso) return null;
  const from = Date.parse(fromIso);
  if (Number.isNaN(from) || Number.isNaN(to)) return null;
  // A client clock slightly behind the server's must not show a negative time.
  return Math.max(0, to - from);
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-2.5 first:pt-0 last:pb-0">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right font-medium">{children}</dd>
    </div>
  );
}

function Duration({ job }: { job: Job }) {
  const isRunning = job.status === 'running' && job.finished_at === null;
  const now = useNow(isRunning);
  const end = job.finished_at ? Date.parse(job.finished_at) : isRunning ? now : null;
  const milliseconds = end === null ? null : elapsed(job.started_at, end);
  if (milliseconds === null) return <>—</>;
  return (
    <span className="tabular-nums">
      {formatDuration(milliseconds)}
      {isRunning ? <span className="font-normal text-muted-foreground"> so far</span> : null}
    </span>
  );
}

const VERIFICATION_LABELS: Record<NonNullable<Job['replication']> | 'challenge', string> = {
  challenge: 'Challenge passed',
  agreed: 'Challenge passed, confirmed by a second provider',
  not_replicated: 'Challenge passed; no second provider was free to replicate it',
};

/** What the job is, where and when it ran, and how often it was tried. */
export function JobSummary({ job }: { job: Job }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Summary</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="divide-y text-sm">
          <Row label="Type">{formatJobType(job.job_type)}</Row>
          <Row label="Priority">{PRIORITY_LABELS[job.priority]}</Row>
          <Row label="Node">
            {job.assigned_node_id ? (
              <span className="font-mono text-xs">{shortId(job.assigned_node_id)}</span>
            ) : (
              'Unassigned'
            )}
          </Row>
          <Row label="Submitted">{formatDateTime(job.created_at)}</Row>
          <Row label="Started">{formatDateTime(job.started_at)}</Row>
          <Row label="Finished">{formatDateTime(job.finished_at)}</Row>
          <Row label="Duration">
            <Duration job={job} />
          </Row>
          <Row label="Attempts">
            <span className="tabular-nums">
              {job.attempts} of {job.max_attempts}
            </span>
          </Row>
          {job.status === 'completed' ? (
            <Row label="Verification">{VERIFICATION_LABELS[job.replication ?? 'challenge']}</Row>
          ) : null}
        </dl>
      </CardContent>
    </Card>
  );
}

/** The estimate, and the actual cost (and the CPU time it charges) once the job has ended. */
export function JobCost({
  job,
}: {
  job: Pick<Job, 'status' | 'estimated_cost' | 'actual_cost' | 'billed_cpu_ms'>;
}) {
  const isUnderway = job.status === 'queued' || job.status === 'running';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Cost</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="divide-y text-sm">
          <Row label="Estimated cost">
            {job.estimated_cost === null ? '—' : formatUsd(job.estimated_cost)}
          </Row>
          <Row label="Actual cost">
            {job.actual_cost === null ? (
              <span className="grid justify-items-end">
                <span>—</span>
                {isUnderway ? (
                  <span className="text-xs font-normal text-muted-foreground">
                    Charged when the job ends
                  </span>
                ) : null}
              </span>
            ) : (
              formatUsd(job.actual_cost)
            )}
          </Row>
          {job.billed_cpu_ms === null ? null : (
            <Row label="Billed CPU time">
              <span className="grid justify-items-end">
                <span className="tabular-nums">{formatDuration(job.billed_cpu_ms)}</span>
                <span className="text-xs font-normal text-muted-foreground">
                  {job.status === 'completed'
                    ? 'The work its verified result needed'
                    : 'The time it ran, on one core'}
                </span>
              </span>
            </Row>
          )}
        </dl>
      </CardContent>
    </Card>
  );
}

/** What the node reported for the attempt that produced the result: shown, never billed. */
export function JobUsage({ usage }: { usage: NonNullable<Job['usage']> }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Usage</CardTitle>
        <CardDescription>As the node reported it. Billing never depends on it.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y text-sm">
          <Row label="Wall time">{formatDuration(usage.wall_ms)}</Row>
          <Row label="CPU time">{formatDuration(usage.cpu_ms)}</Row>
          <Row label="Peak memory">{formatBytes(usage.peak_memory_bytes)}</Row>
        </dl>
      </CardContent>
    </Card>
  );
}
