// The data sets of neural_network_training, as the kernel trains on them and the verifier
// evaluates them: digits (shipped, datasets/digits.csv.gz), XOR and two spirals (drawn from the
// job's seed with SeededRandom, so every machine draws the same points) or an inline one from the
// params. Then the job's train/validation split, a seeded permutation of the samples.
import { gunzipSync } from 'node:zlib';
import {
  NEURAL_NETWORK_DATASETS,
  neuralNetworkDatasetShape,
  type InlineNeuralNetworkDataset,
  type NeuralNetworkDatasetName,
  type NeuralNetworkTrainingResult,
} from '@fabric/contract';
import { SeededRandom } from '../../random.ts';
import { DIGITS_CSV_GZ_BASE64 } from './digits-data.ts';

/** Samples row-major (samples × features) and their class numbers. */
export interface NeuralNetworkDataset {
  name: NeuralNetworkDatasetName | 'inline';
  samples: number;
  features: number;
  classes: number;
  inputs: Float32Array;
  labels: Int32Array;
}

/** Salts of the streams a training job draws; none is shared with another package stream. */
export const NEURAL_NETWORK_SALTS = {
  xor: 'nn-xor',
  spirals: 'nn-spirals',
  split: 'nn-split',
  shuffle: 'nn-shuffle',
  init: 'nn-init',
} as const;

/** Digits pixels are 0..16; the network sees them scaled to 0..1. */
const DIGITS_PIXEL_MAX = 16;
const SPIRAL_TURNS = 1.75;
const SPIRAL_NOISE = 0.03;

/** The gzip bytes of datasets/digits.csv.gz (embedded: see scripts/embed-digits.ts). */
export function digitsCsvGz(): Buffer {
  return Buffer.from(DIGITS_CSV_GZ_BASE64, 'base64');
}

let digitsCache: NeuralNetworkDataset | undefined;

function loadDigits(): NeuralNetworkDataset {
  if (digitsCache) return digitsCache;
  const { samples, features, classes } = NEURAL_NETWORK_DATASETS.digits;
  const lines = gunzipSync(digitsCsvGz()).toString('utf8').trim().split('\n');
  if (lines.length !== samples) {
    throw new Error(`digits.csv.gz has ${lines.length} rows, expected ${samples}`);
  }
  const inputs = new Float32Array(samples * features);
  const labels = new Int32Array(samples);
  lines.forEach((line, row) => {
    const values = line.split(',').map(Number);
    const label = values[features];
    if (values.length !== features + 1 || label === undefined || !(label >= 0 && label < classes)) {
      throw new Error(`digits.csv.gz row ${row + 1} is malformed`);
    }
    for (let column = 0; column < features; column++) {
      inputs[row * features + column] = (values[column] ?? 0) / DIGITS_PIXEL_MAX;
    }
    labels[row] = label;
  });
  digitsCache = { name: 'digits', samples, features, classes, inputs, labels };
  return digitsCache;
}

/** Points uniform in [-1, 1)²; class 1 where exactly one coordinate is positive. */
function generateXor(seed: number): NeuralNetworkDataset {
  const { samples, features, classes } = NEURAL_NETWORK_DATASETS.xor;
  const random = new SeededRandom(seed, NEURAL_NETWORK_SALTS.xor);
  const inputs = new Float32Array(samples * features);
  const labels = new Int32Array(samples);
  for (let index = 0; index < samples; index++) {
    const x = random.nextSigned();
    const y = random.nextSigned();
    inputs[2 * index] = x;
    inputs[2 * index + 1] = y;
    labels[index] = x > 0 !== y > 0 ? 1 : 0;
  }
  return { name: 'xor', samples, features, classes, inputs, labels };
}

/** Two interleaved spirals of SPIRAL_TURNS turns in the unit disc, samples alternating classes. */
function generateSpirals(seed: number): NeuralNetworkDataset {
  const { samples, features, classes } = NEURAL_NETWORK_DATASETS.spirals;
  const random = new SeededRandom(seed, NEURAL_NETWORK_SALTS.spirals);
  const inputs = new Float32Array(samples * features);
  const labels = new Int32Array(samples);
  const perClass = samples / classes;
  for (let index = 0; index < samples; index++) {
    const label = index % classes;
    const radius = (Math.floor(index / classes) + 1) / perClass;
    const angle = 2 * Math.PI * SPIRAL_TURNS * radius + label * Math.PI;
    inputs[2 * index] = radius * Math.cos(angle) + SPIRAL_NOISE * random.nextSigned();
    inputs[2 * index + 1] = radius * Math.sin(angle) + SPIRAL_NOISE * random.nextSigned();
    labels[index] = label;
  }
  return { name: 'spirals', samples, features, classes, inputs, labels };
}

function inlineDataset(dataset: InlineNeuralNetworkDataset): NeuralNetworkDataset {
  const { samples, features, classes } = neuralNetworkDatasetShape(dataset);
  const inputs = new Float32Array(samples * features);
  dataset.inputs.forEach((row, index) => inputs.set(row, index * features));
  return {
    name: 'inline',
    samples,
    features,
    classes,
    inputs,
    labels: Int32Array.from(dataset.labels),
  };
}

/** The samples a job trains on (params already checked by the contract's schema). */
export function loadNeuralNetworkDataset(
  dataset: NeuralNetworkDatasetName | InlineNeuralNetworkDataset,
  seed: number,
): NeuralNetworkDataset {
  if (typeof dataset === 'object') return inlineDataset(dataset);
  if (dataset === 'xor') return generateXor(seed);
  if (dataset === 'spirals') return generateSpirals(seed);
  return loadDigits();
}

/** A uniform integer in [0, bound), exactly (nextUnit is a multiple of 2^-53). */
export function nextIndex(random: SeededRandom, bound: number): number {
  return Math.floor(random.nextUnit() * bound);
}

/** Fisher–Yates over `order` in place. */
export function shuffleInPlace(order: Int32Array, random: SeededRandom): void {
  for (let index = order.length - 1; index > 0; index--) {
    const other = nextIndex(random, index + 1);
    const kept = order[index] ?? 0;
    order[index] = order[other] ?? 0;
    order[other] = kept;
  }
}

/**
 * The job's split: a permutation of the samples drawn from the seed; its first
 * floor(samples × validation_split) samples validate, the rest train (in permuted order).
 */
export function splitNeuralNetworkDataset(
  samples: number,
  validationSplit: number,
  seed: number,
): { training: Int32Array; validation: Int32Array } {
  const order = Int32Array.from({ length: samples }, (_, index) => index);
  shuffleInPlace(order, new SeededRandom(seed, NEURAL_NETWORK_SALTS.split));
  const validationCount = Math.floor(samples * validationSplit);
  return { validation: order.slice(0, validationCount), training: order.slice(validationCount) };
}

/** The result's `dataset`: what the network learned from, as the kernel and the check both state it. */
export function datasetSummary(
  dataset: NeuralNetworkDataset,
  split: { training: Int32Array; validation: Int32Array },
): NeuralNetworkTrainingResult['dataset'] {
  return {
    name: dataset.name,
    samples: dataset.samples,
    features: dataset.features,
    classes: dataset.classes,
    training_samples: split.training.length,
    validation_samples: split.validation.length,
  };
}
