import {
  MATRIX_LIMITS,
  matrixMultiplyResultSchema,
  type MatrixMultiplyResult,
} from '@fabric/contract';
import { CircleCheck, CircleX } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Fact, Facts, integer, Section } from './result-parts';

const entry = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6, useGrouping: false });

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

export function matrixMultiplyResultView(result: Record<string, unknown>) {
  const parsed = matrixMultiplyResultSchema.safeParse(result);
  return parsed.success ? <MatrixResult result={parsed.data} /> : null;
}
