// Default resolution of job params, shared by the kernels (agent) and the verifier (server) so that
// both sides run exactly the same job for a given params object.
import {
  FIBONACCI_LIMITS,
  MATRIX_LIMITS,
  NEURAL_NETWORK_LIMITS,
  PRIME_SIEVE_LIMITS,
  fibonacciParamsSchema,
  matrixMultiplyParamsSchema,
  neuralNetworkTrainingParamsSchema,
  primeSieveParamsSchema,
  type FibonacciParams,
  type InlineNeuralNetworkDataset,
  type MatrixMultiplyParams,
  type NeuralNetworkDatasetName,
  type NeuralNetworkTrainingParams,
  type PrimeSieveParams,
} from '@fabric/contract';
import { RANDOM_SALTS, forEachGeneratedRow, generateMatrix } from './random.ts';

type InlineMatrix = readonly (readonly number[])[];

export type MatrixSource =
  { kind: 'seeded'; seed: number } | { kind: 'inline'; a: InlineMatrix; b: InlineMatrix };

/** A is rows x inner, B is inner x cols, C = A x B is rows x cols. */
export interface ResolvedMatrixParams {
  rows: number;
  inner: number;
  cols: number;
  source: MatrixSource;
}

export interface ResolvedFibonacciParams {
  n: number;
}

export interface ResolvedPrimeSieveParams {
  limit: number;
}

export interface ResolvedNeuralNetworkParams {
  dataset: NeuralNetworkDatasetName | InlineNeuralNetworkDataset;
  hiddenLayers: readonly number[];
  activation: 'relu' | 'tanh' | 'sigmoid';
  epochs: number;
  batchSize: number;
  learningRate: number;
  optimizer: 'adam' | 'sgd' | 'rmsprop';
  validationSplit: number;
  seed: number;
}

export type MatrixName = 'a' | 'b';

/**
 * Shape and source of a matrix_multiply job from params the contract schema accepted: inline `a`
 * and `b` fix the shape; otherwise `rows`, `inner`, `cols` each default to `size`, which defaults to
 * MATRIX_LIMITS.defaultSize, and `seed` defaults to MATRIX_LIMITS.defaultSeed.
 */
export function resolveMatrixParams(params: MatrixMultiplyParams): ResolvedMatrixParams {
  if (params.a !== undefined && params.b !== undefined) {
    const firstRowA = params.a[0];
    const firstRowB = params.b[0];
    if (firstRowA === undefined || firstRowB === undefined) {
      throw new RangeError('inline matrices must have at least one row');
    }
    return {
      rows: params.a.length,
      inner: firstRowA.length,
      cols: firstRowB.length,
      source: { kind: 'inline', a: params.a, b: params.b },
    };
  }
  const size = params.size ?? MATRIX_LIMITS.defaultSize;
  return {
    rows: params.rows ?? size,
    inner: params.inner ?? size,
    cols: params.cols ?? size,
    source: { kind: 'seeded', seed: params.seed ?? MATRIX_LIMITS.defaultSeed },
  };
}

export function resolveFibonacciParams(params: FibonacciParams): ResolvedFibonacciParams {
  return { n: params.n ?? FIBONACCI_LIMITS.defaultN };
}

export function resolvePrimeSieveParams(params: PrimeSieveParams): ResolvedPrimeSieveParams {
  return { limit: params.limit ?? PRIME_SIEVE_LIMITS.defaultLimit };
}

export function resolveNeuralNetworkParams(
  params: NeuralNetworkTrainingParams,
): ResolvedNeuralNetworkParams {
  const limits = NEURAL_NETWORK_LIMITS;
  return {
    dataset: params.dataset ?? limits.defaultDataset,
    hiddenLayers: params.hidden_layers ?? limits.defaultHiddenLayers,
    activation: params.activation ?? limits.defaultActivation,
    epochs: params.epochs ?? limits.defaultEpochs,
    batchSize: params.batch_size ?? limits.defaultBatchSize,
    learningRate: params.learning_rate ?? limits.defaultLearningRate,
    optimizer: params.optimizer ?? limits.defaultOptimizer,
    validationSplit: params.validation_split ?? limits.defaultValidationSplit,
    seed: params.seed ?? limits.defaultSeed,
  };
}

/** Parses raw params with the contract schema and resolves defaults; throws the zod error on bad params. */
export function parseMatrixParams(params: unknown): ResolvedMatrixParams {
  return resolveMatrixParams(matrixMultiplyParamsSchema.parse(params));
}
export function parseFibonacciParams(params: unknown): ResolvedFibonacciParams {
  return resolveFibonacciParams(fibonacciParamsSchema.parse(params));
}
export function parsePrimeSieveParams(params: unknown): ResolvedPrimeSieveParams {
  return resolvePrimeSieveParams(primeSieveParamsSchema.parse(params));
}
export function parseNeuralNetworkParams(params: unknown): ResolvedNeuralNetworkParams {
  return resolveNeuralNetworkParams(neuralNetworkTrainingParamsSchema.parse(params));
}

function matrixShape(params: ResolvedMatrixParams, name: MatrixName): [number, number] {
  return name === 'a' ? [params.rows, params.inner] : [params.inner, params.cols];
}

/** A or B of the job as a row-major Float64Array (pass `into` to fill e.g. a SharedArrayBuffer view). */
export function materializeMatrix(
  params: ResolvedMatrixParams,
  name: MatrixName,
  into?: Float64Array,
): Float64Array {
  const [rows, cols] = matrixShape(params, name);
  const target = into ?? new Float64Array(rows * cols);
  if (target.length < rows * cols) throw new RangeError('target array is too small');
  if (params.source.kind === 'seeded') {
    const salt = name === 'a' ? RANDOM_SALTS.matrixA : RANDOM_SALTS.matrixB;
    return generateMatrix(params.source.seed, rows, cols, salt, target);
  }
  const inline = name === 'a' ? params.source.a : params.source.b;
  for (let row = 0; row < rows; row++) {
    const values = inline[row];
    for (let col = 0; col < cols; col++) target[row * cols + col] = values?.[col] ?? 0;
  }
  return target;
}

/** Visits the rows of A or B in order with O(cols) memory (the verifier never holds a whole matrix). */
export function forEachMatrixRow(
  params: ResolvedMatrixParams,
  name: MatrixName,
  visit: (row: Float64Array, rowIndex: number) => void,
): void {
  const [rows, cols] = matrixShape(params, name);
  if (params.source.kind === 'seeded') {
    const salt = name === 'a' ? RANDOM_SALTS.matrixA : RANDOM_SALTS.matrixB;
    forEachGeneratedRow(params.source.seed, rows, cols, salt, visit);
    return;
  }
  const inline = name === 'a' ? params.source.a : params.source.b;
  const buffer = new Float64Array(cols);
  for (let row = 0; row < rows; row++) {
    const values = inline[row];
    for (let col = 0; col < cols; col++) buffer[col] = values?.[col] ?? 0;
    visit(buffer, row);
  }
}
