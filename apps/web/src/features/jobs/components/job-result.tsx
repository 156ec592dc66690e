import type { Job } from '@fabric/contract';
import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { shortId } from '@/lib/format';
import { downloadJson } from '@/lib/download';
import { RESULT_VIEWS } from '../job-types';
import { monoBlock } from '../job-types/result-parts';

/** The result in the shape of its job type; a type without its own view shows the JSON. */
function ResultBody({ job, result }: { job: Job; result: Record<string, unknown> }) {
  const view = Object.hasOwn(RESULT_VIEWS, job.job_type) ? RESULT_VIEWS[job.job_type] : undefined;
  const shown = view?.(result);
  if (shown) return shown;
  return (
    <pre className={monoBlock} tabIndex={0}>
      {JSON.stringify(result, null, 2)}
    </pre>
  );
}

export function resultFileName(job: Pick<Job, 'id'>): string {
  return `job-${shortId(job.id)}-result.json`;
}

/** Saves the whole result, with what produced it, as a JSON file. */
function downloadResult(job: Job, result: Record<string, unknown>): void {
  downloadJson(resultFileName(job), {
    job_id: job.id,
    job_type: job.job_type,
    params: job.params,
    result,
  });
}

/** The verified result of a completed job; before that, what will appear here. */
export function JobResult({ job }: { job: Job }) {
  const { result } = job;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Result</CardTitle>
        {result ? (
          <CardAction>
            <Button variant="outline" size="sm" onClick={() => downloadResult(job, result)}>
              <Download aria-hidden="true" />
              Download JSON
            </Button>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        {result ? (
          <ResultBody job={job} result={result} />
        ) : job.status === 'completed' ? (
          <p className="text-sm text-muted-foreground">This job returned no result.</p>
        ) : (
          <p className="text-sm text-muted-foreground">
            The verified result appears here when the job completes.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
