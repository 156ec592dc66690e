import {
  FIBONACCI_LIMITS,
  jobResultSchemas,
  MATRIX_LIMITS,
  type FibonacciResult,
  type Job,
  type MatrixMultiplyResult,
  type PrimeSieveResult,
} from '@fabric/contract';
import { CircleCheck, CircleX, Download } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { shortId } from '@/lib/format';
import { cn } from '@/lib/utils';

const integer = new Intl.NumberFormat('en-US');
const entry = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6, useGrouping: false });

/** Long numbers stay on their lines but may wrap anywhere; long blocks scroll inside the card. */
const monoBlock =
  'max-h-64 overflow-auto rounded-md border bg-muted/50 p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 rounded-lg border bg-muted/30 px-3 py-2.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0 font-medium break-words">{children}</dd>
    </div>
  );
}

function Facts({ children, columns = 2 }: { children: ReactNode; columns?: 2 | 3 }) {
  return (
    <dl
      className={cn(
        'grid grid-cols-1 gap-3 text-sm min-[420px]:grid-cols-2',
        columns === 3 && 'md:grid-cols-3',
      )}
    >
      {children}
    </dl>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="grid gap-2">
      <h3 className="text-sm font-medium">{title}</h3>
      {children}
    </section>
  );
}

function MatrixResult({ result }: { result: MatrixMultiplyResult }) {
  const { rows, inner, cols, c } = result;
  return (
    <div className="grid gap-5">
      <Facts columns={3}>
        <Fact label="Dimensions">
          <span className="tabular-nums">
            {rows}×{inner} · {inner}×{cols}
          </span>
          <span className="block text-xs font-normal text-muted-foreground">
            A × B gives C of {rows}×{cols}
          </span>
        </Fact>
        <Fact label="Checksum (sum of C)">
          <span className="font-mono text-xs">{String(result.checksum)}</span>
        </Fact>
        <Fact label="Freivalds check">
          <span className="inline-flex flex-wrap items-center gap-2">
            {result.freivalds.passed ? (
              <Badge variant="success">
                <CircleCheck aria-hidden="true" />
                Passed
              </Badge>
            ) : (
              <Badge variant="destructive">
                <CircleX aria-hidden="true" />
                Failed
              </Badge>
            )}
            <span className="text-muted-foreground tabular-nums">
              {result.freivalds.rounds} {result.freivalds.rounds === 1 ? 'round' : 'rounds'}
            </span>
          </span>
        </Fact>
      </Facts>
      {c ? (
        <Section title={`Product matrix C (${rows}×${cols})`}>
          <div
            className="max-h-96 overflow-auto rounded-md border"
            tabIndex={0}
            role="region"
            aria-label="Product matrix C, scrollable"
          >
            <table className="font-mono text-xs tabular-nums">
              <tbody>
                {c.map((row, rowIndex) => (
                  <tr key={rowIndex} className="odd:bg-muted/40">
                    {row.map((value, columnIndex) => (
                      <td key={columnIndex} className="px-2 py-1 text-right whitespace-nowrap">
                        {entry.format(value)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>
      ) : (
        <p className="text-sm text-muted-foreground">
          C has {integer.format(rows * cols)} entries. Products with more than{' '}
          {integer.format(MATRIX_LIMITS.maxReturnedEntries)} entries are not returned whole: only
          the checksum and a projection that the network verifies. Download the JSON for the
          projection.
        </p>
      )}
    </div>
  );
}

function FibonacciResultView({ result }: { result: FibonacciResult }) {
  return (
    <div className="grid gap-5">
      <Facts>
        <Fact label="n">
          <span className="tabular-nums">{integer.format(result.n)}</span>
        </Fact>
        <Fact label="Digits">
          <span className="tabular-nums">{integer.format(result.digits)}</span>
        </Fact>
      </Facts>
      {result.value !== undefined ? (
        <Section title={`F(${String(result.n)})`}>
          <pre className={monoBlock} tabIndex={0}>
            {result.value}
          </pre>
        </Section>
      ) : (
        <Section title={`F(${String(result.n)}), first and last digits`}>
          <pre className={monoBlock} tabIndex={0}>
            {result.head}…{result.tail}
          </pre>
          <p className="text-xs text-muted-foreground">
            Values above {integer.format(FIBONACCI_LIMITS.maxInlineDigits)} digits are returned as
            their first and last digits and a SHA-256 of the whole number.
          </p>
        </Section>
      )}
      <Section title="SHA-256 of the decimal value">
        <p className="rounded-md border bg-muted/50 p-3 font-mono text-xs break-all">
          {result.sha256}
        </p>
      </Section>
    </div>
  );
}

function PrimeSieveResultView({ result }: { result: PrimeSieveResult }) {
  return (
    <div className="grid gap-5">
      <Facts columns={3}>
        <Fact label="Limit">
          <span className="tabular-nums">{integer.format(result.limit)}</span>
        </Fact>
        <Fact label="Primes up to the limit">
          <span className="tabular-nums">{integer.format(result.count)}</span>
        </Fact>
        <Fact label="Largest prime">
          <span className="tabular-nums">
            {result.largest === null ? 'None' : integer.format(result.largest)}
          </span>
        </Fact>
      </Facts>
      {result.first.length > 0 ? (
        <Section title={`First ${integer.format(result.first.length)} primes`}>
          <p className={monoBlock} tabIndex={0}>
            {result.first.join(', ')}
          </p>
        </Section>
      ) : null}
    </div>
  );
}

/** The result in the shape of its job type; a type without its own view shows the JSON. */
function ResultBody({ job, result }: { job: Job; result: Record<string, unknown> }) {
  switch (job.job_type) {
    case 'matrix_multiply': {
      const parsed = jobResultSchemas.matrix_multiply.safeParse(result);
      if (parsed.success) return <MatrixResult result={parsed.data} />;
      break;
    }
    case 'fibonacci': {
      const parsed = jobResultSchemas.fibonacci.safeParse(result);
      if (parsed.success) return <FibonacciResultView result={parsed.data} />;
      break;
    }
    case 'prime_sieve': {
      const parsed = jobResultSchemas.prime_sieve.safeParse(result);
      if (parsed.success) return <PrimeSieveResultView result={parsed.data} />;
      break;
    }
    default:
      break;
  }
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
  const body = {
    job_id: job.id,
    job_type: job.job_type,
    params: job.params,
    result,
  };
  const blob = new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = resultFileName(job);
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled, or some browsers cancel the download.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
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
