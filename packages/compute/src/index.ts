// @fabric/compute: the kernels the agent runs and the checks the server applies to their results.
// Pure TypeScript, no I/O: the agent runs kernels in worker threads, the server calls verifyResult
// before a result counts. README.md describes the verification rules, their limits, and how to
// spread matrix bands and sieve ranges over worker threads.

export type { VerificationOutcome } from './verification.ts';

export {
  verifyResult,
  FIBONACCI_EXACT_CHECK_MAX_N,
  PRIME_GAP_CEILING,
  PRIME_SIEVE_EXACT_CHECK_MAX_LIMIT,
} from './verify.ts';
export { FIBONACCI_EDGE_DIGITS, PRIME_SIEVE_FIRST_COUNT } from './constants.ts';
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
  parseNeuralNetworkParams,
  parsePrimeSieveParams,
  resolveFibonacciParams,
  resolveMatrixParams,
  resolveNeuralNetworkParams,
  resolvePrimeSieveParams,
  type MatrixName,
  type MatrixSource,
  type ResolvedFibonacciParams,
  type ResolvedMatrixParams,
  type ResolvedNeuralNetworkParams,
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
export { KernelAbortedError, KernelInputError, type KernelHooks } from './kernels/hooks.ts';
export {
  FREIVALDS_ROUNDS,
  buildMatrixResult,
  freivaldsCheck,
  multiplyBand,
  computeMatrixProduct,
  runMatrixMultiply,
  transposeMatrix,
  type MatrixDimensions,
  type MultiplyBandOptions,
} from './job-types/matrix-multiply/kernel.ts';
export { computeFibonacci, runFibonacci } from './job-types/fibonacci/kernel.ts';
export {
  SEGMENT_BITS,
  SEGMENT_SPAN,
  basePrimesFor,
  combinePrimeCounts,
  countPrimesBySpan,
  countPrimesWithSpans,
  runPrimeSieve,
  sievePrimeCountRange,
  splitPrimeSieveRange,
  type BasePrimes,
  type PrimeRangeCount,
  type PrimeSpanCounts,
} from './job-types/prime-sieve/kernel.ts';
export {
  runNeuralNetworkTraining,
  trainNeuralNetwork,
  type NeuralNetworkOutput,
  type NeuralNetworkWitness,
} from './job-types/neural-network-training/kernel.ts';
export {
  loadTensorFlow,
  type TensorFlowRuntime,
} from './job-types/neural-network-training/runtime.ts';
export {
  drawChallenge,
  replicasAgree,
  type CommittedResult,
  openChallenge,
  verifyCommittedResult,
  type ProofRecord,
  type ProofWitness,
  type ProvenOutput,
} from './proofs/index.ts';
export { commitMatrixProduct } from './job-types/matrix-multiply/proof.ts';
export { primeSieveSpanCount } from './job-types/prime-sieve/proof.ts';
export { type RandomInt } from './proofs/random-choice.ts';
export { COMPUTE_JOB_TYPES, computeJobType, type ComputedJobType } from './job-types/registry.ts';
export type { ComputeJobType } from './job-types/job-type.ts';
