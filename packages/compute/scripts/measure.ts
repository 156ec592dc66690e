// Single-thread timings of the kernels and of their verification, for the README table.
// Run: npx tsx packages/compute/scripts/measure.ts [--quick]   (--quick skips 2048², F(10^7), π(10^10))
// Not part of the test run: speed is measured here, never asserted.
import type { JobType } from '@fabric/contract';
import {
  parseFibonacciParams,
  parseMatrixParams,
  parsePrimeSieveParams,
  runFibonacci,
  runMatrixMultiply,
  runPrimeSieve,
  verifyResult,
} from '../src/index.ts';

const isQuick = process.argv.includes('--quick');

function time<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
}

function measure(
  label: string,
  jobType: JobType,
  params: Record<string, unknown>,
  run: () => object,
) {
  const challengeSeed = 20_261_122;
  const kernel = time(run);
  const check = time(() => verifyResult(jobType, params, kernel.value, challengeSeed));
  const verdict = check.value.ok ? 'accepted' : `REFUSED: ${check.value.reason}`;
  console.log(
    `${label.padEnd(28)} kernel ${kernel.ms.toFixed(0).padStart(7)} ms   verify ${check.ms.toFixed(0).padStart(5)} ms   ${verdict}`,
  );
}

for (const size of isQuick ? [256, 512, 1024] : [256, 512, 1024, 2048]) {
  const params = { size, seed: 1 };
  measure(`matrix_multiply ${size}²`, 'matrix_multiply', params, () =>
    runMatrixMultiply(parseMatrixParams(params), {}, 20_261_122),
  );
}
for (const n of isQuick ? [1e5, 1e6] : [1e5, 1e6, 1e7]) {
  measure(`fibonacci n = ${n.toExponential()}`, 'fibonacci', { n }, () =>
    runFibonacci(parseFibonacciParams({ n })),
  );
}
for (const limit of isQuick ? [1e7, 1e8, 1e9] : [1e7, 1e8, 1e9, 1e10]) {
  measure(`prime_sieve limit = ${limit.toExponential()}`, 'prime_sieve', { limit }, () =>
    runPrimeSieve(parsePrimeSieveParams({ limit })),
  );
}
