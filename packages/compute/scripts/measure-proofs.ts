// What commit, challenge and open cost, beside the work they prove (README: Trust model). For each
// type at a large size: the kernel's time, the agent's commitment, the server's verification of a
// random challenge, and the bytes the agent sends. Run: npx tsx packages/compute/scripts/measure-proofs.ts
import { randomInt } from 'node:crypto';
import {
  commitMatrixProduct,
  computeFibonacci,
  computeMatrixProduct,
  countPrimesWithSpans,
  drawChallenge,
  openChallenge,
  parseMatrixParams,
  verifyCommittedResult,
  type ProofWitness,
} from '../src/index.ts';

function time<T>(work: () => T): [T, number] {
  const start = performance.now();
  const value = work();
  return [value, performance.now() - start];
}

function report(
  label: string,
  jobType: 'matrix_multiply' | 'prime_sieve' | 'fibonacci',
  params: Record<string, unknown>,
  kernelMs: number,
  commitMs: number,
  output: { result: object; commitment: object; witness: ProofWitness },
) {
  const challenge = drawChallenge(jobType, params, randomInt);
  const opening = openChallenge(output.witness, challenge);
  const [verdict, verifyMs] = time(() =>
    verifyCommittedResult(jobType, params, output.result, 7, {
      commitment: output.commitment,
      challenge,
      opening,
    }),
  );
  if (!verdict.ok) throw new Error(`${label}: ${verdict.reason}`);
  const sent = JSON.stringify(output.commitment).length + JSON.stringify(opening).length;
  console.log(
    `${label.padEnd(22)} kernel ${kernelMs.toFixed(0).padStart(6)} ms · commit ${commitMs.toFixed(0).padStart(4)} ms · verify ${verifyMs.toFixed(0).padStart(4)} ms (${((100 * verifyMs) / kernelMs).toFixed(2)} % of the kernel) · proof ${(sent / 1024).toFixed(0)} KB`,
  );
}

for (const size of [512, 1024]) {
  const params = { size, seed: 1 };
  const resolved = parseMatrixParams(params);
  const [{ result, c }, kernelMs] = time(() => computeMatrixProduct(resolved, {}, 7));
  const [proof, commitMs] = time(() => commitMatrixProduct(c, size, size));
  report(`matrix ${size}³`, 'matrix_multiply', params, kernelMs, commitMs, { result, ...proof });
}
for (const limit of [1e8, 1e9]) {
  const [{ result, spanCounts }, kernelMs] = time(() => countPrimesWithSpans({ limit }));
  report(`prime sieve ${limit.toExponential(0)}`, 'prime_sieve', { limit }, kernelMs, 0, {
    result,
    commitment: { segment_counts: spanCounts },
    witness: { kind: 'prime_sieve' },
  });
}
for (const n of [1_000_000, 10_000_000]) {
  const [{ result, decimal }, kernelMs] = time(() => computeFibonacci({ n }));
  report(`fibonacci ${n.toExponential(0)}`, 'fibonacci', { n }, kernelMs, 0, {
    result,
    commitment: {},
    witness: { kind: 'fibonacci', decimal },
  });
}
