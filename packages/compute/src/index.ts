// @fabric/compute: the kernels the agent runs and the checks the server applies to their results.
// Pure TypeScript, no I/O: the agent runs kernels in worker threads, the server calls verifyResult
// before a result counts.

export type VerificationOutcome = { ok: true } | { ok: false; reason: string };

export {
  verifyResult,
  FIBONACCI_EDGE_DIGITS,
  FIBONACCI_EXACT_CHECK_MAX_N,
  PRIME_GAP_CEILING,
  PRIME_SIEVE_EXACT_CHECK_MAX_LIMIT,
  PRIME_SIEVE_FIRST_COUNT,
} from './verify.ts';
export {
  RANDOM_SALTS,
  SeededRandom,
  challengeVector,
  forEachGeneratedRow,
  generateMatrix,
} from './random.ts';
export {
  forEachMatrixRow,
  materializeMatrix,
  parseFibonacciParams,
  parseMatrixParams,
  parsePrimeSieveParams,
  resolveFibonacciParams,
  resolveMatrixParams,
  resolvePrimeSieveParams,
  type MatrixName,
  type MatrixSource,
  type ResolvedFibonacciParams,
  type ResolvedMatrixParams,
  type ResolvedPrimeSieveParams,
} from './params.ts';
export {
  KNOWN_PRIME_COUNTS,
  fibonacciModulo,
  fibonacciPair,
  isPrime,
  logarithmicIntegral,
  primeCountBounds,
  primesUpTo,
} from './number-theory.ts';
