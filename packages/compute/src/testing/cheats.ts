// Cheating agents, for tests only (@fabric/compute/testing): results that cost almost nothing to
// make and pass every check a verifier without commit and challenge could afford. Each comes with
// the commitment and witness such an agent would send, so tests can watch the proof refuse it.
import { createHash } from 'node:crypto';
import {
  neuralNetworkDatasetShape,
  type FibonacciResult,
  type MatrixMultiplyResult,
  type NeuralNetworkTrainingResult,
  type PrimeSieveResult,
} from '@fabric/contract';
import { FIBONACCI_EDGE_DIGITS, PRIME_SIEVE_FIRST_COUNT } from '../constants.ts';
import {
  fibonacciLeadingDigits,
  fibonacciModulo,
  isPrime,
  primeCountBounds,
  primesUpTo,
} from '../number-theory.ts';
import {
  forEachMatrixRow,
  parseFibonacciParams,
  parseMatrixParams,
  parseNeuralNetworkParams,
  parsePrimeSieveParams,
} from '../params.ts';
import type { ProofWitness } from '../proofs/index.ts';
import { commitMatrixProduct } from '../job-types/matrix-multiply/proof.ts';
import { primeSieveSpanCount } from '../job-types/prime-sieve/proof.ts';
import { challengeVector, SeededRandom } from '../random.ts';
import { networkLayerSizes } from '../job-types/neural-network-training/kernel.ts';
import {
  decodeWeights,
  encodeFloat32,
  weightsSha256,
  type DenseWeights,
} from '../job-types/neural-network-training/model.ts';

export interface CheatOutput {
  /** What the cheat does instead of the job. */
  how: string;
  result: Record<string, unknown>;
  commitment: Record<string, unknown>;
  witness: ProofWitness;
}

/** C·r as A·(B·r) and the checksum as (1ᵀA)(B·1), O(n²); commits to a zero C it never computed. */
export function projectedMatrixCheat(params: unknown, challengeSeed: number): CheatOutput {
  const resolved = parseMatrixParams(params);
  const { rows, inner, cols } = resolved;
  const r = challengeVector(challengeSeed, cols);
  const bTimesR = new Float64Array(inner);
  const bRowSums = new Float64Array(inner);
  forEachMatrixRow(resolved, 'b', (row, k) => {
    let dot = 0;
    let sum = 0;
    row.forEach((value, j) => {
      dot += value * (r[j] ?? 0);
      sum += value;
    });
    bTimesR[k] = dot;
    bRowSums[k] = sum;
  });
  const projection: number[] = [];
  let checksum = 0;
  forEachMatrixRow(resolved, 'a', (row) => {
    let dot = 0;
    row.forEach((value, k) => {
      dot += value * (bTimesR[k] ?? 0);
      checksum += value * (bRowSums[k] ?? 0);
    });
    projection.push(dot);
  });
  const result: MatrixMultiplyResult = {
    rows,
    inner,
    cols,
    checksum,
    projection,
    freivalds: { rounds: 20, passed: true },
  };
  return {
    how: 'projection A·(B·r) and checksum (1ᵀA)(B·1) without the product',
    result,
    ...commitMatrixProduct(new Float64Array(rows * cols), rows, cols),
  };
}

/**
 * A prime count guessed in the middle of the proven bounds, spread evenly over the spans; the
 * largest prime and the first ones found by testing a few numbers (cheap and right).
 */
export function guessedPrimeSieveCheat(params: unknown): CheatOutput {
  const { limit } = parsePrimeSieveParams(params);
  const bounds = primeCountBounds(limit);
  const count = Math.round((bounds.lower + bounds.upper) / 2);
  let largest = limit;
  while (largest > 2 && !isPrime(largest)) largest--;
  const spans = primeSieveSpanCount(limit);
  const perSpan = Math.floor(count / spans);
  const segmentCounts = Array.from({ length: spans }, (_, index) =>
    index === spans - 1 ? count - perSpan * (spans - 1) : perSpan,
  );
  const result: PrimeSieveResult = {
    limit,
    count,
    largest,
    first: primesUpTo(Math.min(limit, 100)).slice(0, PRIME_SIEVE_FIRST_COUNT),
  };
  return {
    how: 'count guessed inside the analytic window, spans spread evenly',
    result,
    commitment: { segment_counts: segmentCounts },
    witness: { kind: 'prime_sieve' },
  };
}

/**
 * The right digit count, head (φ^n/√5) and tail (F(n) mod 10^50) around a made-up middle, hashed
 * honestly: every field a cheap check can see is right.
 */
export function paddedFibonacciCheat(params: unknown): CheatOutput {
  const { n } = parseFibonacciParams(params);
  const { candidates } = fibonacciLeadingDigits(n, FIBONACCI_EDGE_DIGITS);
  const digits = candidates[0]?.digits ?? 1;
  const head = candidates[0]?.leading ?? '1';
  const tail = fibonacciModulo(n, 10n ** BigInt(FIBONACCI_EDGE_DIGITS))
    .toString()
    .padStart(FIBONACCI_EDGE_DIGITS, '0');
  const decimal = head + '7'.repeat(Math.max(0, digits - 2 * FIBONACCI_EDGE_DIGITS)) + tail;
  const result: FibonacciResult = {
    n,
    digits,
    head,
    tail,
    sha256: createHash('sha256').update(decimal).digest('hex'),
  };
  return {
    how: 'right digits, head and tail around a made-up middle',
    result,
    commitment: {},
    witness: { kind: 'fibonacci', decimal },
  };
}

function neuralNetworkCheat(
  how: string,
  result: NeuralNetworkTrainingResult,
  layers: readonly DenseWeights[],
): CheatOutput {
  return {
    how,
    result,
    commitment: { weights_sha256: weightsSha256(layers) },
    witness: { kind: 'neural_network_training' },
  };
}

/**
 * No training: weights of the right shapes drawn at random, sent with the history and final
 * metrics of an honest result (`claimed`, e.g. another node's), committed to honestly.
 */
export function randomWeightsNeuralNetworkCheat(
  params: unknown,
  claimed: NeuralNetworkTrainingResult,
): CheatOutput {
  const resolved = parseNeuralNetworkParams(params);
  const sizes = networkLayerSizes(resolved, neuralNetworkDatasetShape(resolved.dataset));
  const random = new SeededRandom(resolved.seed, 'cheat');
  const layers: DenseWeights[] = sizes.slice(1).map((units, index) => {
    const inputs = sizes[index] ?? 1;
    const scale = Math.sqrt(6 / (inputs + units));
    return {
      inputs,
      units,
      kernel: Float32Array.from({ length: inputs * units }, () => scale * random.nextSigned()),
      bias: new Float32Array(units),
    };
  });
  const result: NeuralNetworkTrainingResult = {
    ...claimed,
    weights: {
      ...claimed.weights,
      layers: layers.map((layer) => ({
        kernel_shape: [layer.inputs, layer.units],
        kernel: encodeFloat32(layer.kernel),
        bias: encodeFloat32(layer.bias),
      })),
    },
  };
  return neuralNetworkCheat('random weights with an honest curve and accuracy', result, layers);
}

/** An honest result whose curve ends better than its weights do: a lower loss, a higher accuracy. */
export function polishedCurveNeuralNetworkCheat(
  params: unknown,
  honest: NeuralNetworkTrainingResult,
): CheatOutput {
  const resolved = parseNeuralNetworkParams(params);
  const sizes = networkLayerSizes(resolved, neuralNetworkDatasetShape(resolved.dataset));
  const decoded = decodeWeights(honest.weights, sizes);
  if ('problem' in decoded) throw new Error(decoded.problem);
  const polish = (value: number | null, better: (value: number) => number) =>
    value === null ? null : better(value);
  const history = honest.history.map((entry, index) =>
    index === honest.history.length - 1
      ? {
          ...entry,
          loss: entry.loss * 0.5,
          val_loss: polish(entry.val_loss, (value) => value * 0.5),
          val_accuracy: polish(entry.val_accuracy, (value) => Math.min(1, value + 0.03)),
        }
      : entry,
  );
  const last = history.at(-1);
  const result: NeuralNetworkTrainingResult = {
    ...honest,
    history,
    final: {
      ...honest.final,
      val_loss: last?.val_loss ?? null,
      val_accuracy: last?.val_accuracy ?? null,
    },
  };
  return neuralNetworkCheat('an honest run whose last epoch is polished', result, decoded.layers);
}
