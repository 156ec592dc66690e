import { FIBONACCI_LIMITS, fibonacciResultSchema, type FibonacciResult } from '@fabric/contract';
import { Fact, Facts, integer, monoBlock, Section } from './result-parts';

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

export function fibonacciResultView(result: Record<string, unknown>) {
  const parsed = fibonacciResultSchema.safeParse(result);
  return parsed.success ? <FibonacciResultView result={parsed.data} /> : null;
}
