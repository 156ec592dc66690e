import { primeSieveResultSchema, type PrimeSieveResult } from '@fabric/contract';
import { Fact, Facts, integer, monoBlock, Section } from './result-parts';

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

export function primeSieveResultView(result: Record<string, unknown>) {
  const parsed = primeSieveResultSchema.safeParse(result);
  return parsed.success ? <PrimeSieveResultView result={parsed.data} /> : null;
}
