import { z } from 'zod';
import type { JobTypeDefinition } from './definition.ts';
import { FREE_PARAMS_MAX_BYTES } from './pending-kernel.ts';
import { finiteNumber, formatCount, hashHex, onlyKeys } from './shared.ts';

// neural_network_training: a dense network (multi-layer perceptron) trained with TensorFlow.js on
// one of the shipped data sets or an inline one, deterministic for a fixed seed on one runtime.

export const NEURAL_NETWORK_ACTIVATIONS = ['relu', 'tanh', 'sigmoid'] as const;
export const NEURAL_NETWORK_OPTIMIZERS = ['adam', 'sgd', 'rmsprop'] as const;

/** The data sets a job names; their shapes are fixed (the cost model and the checks read them). */
export const NEURAL_NETWORK_DATASETS = {
  /** UCI handwritten digits (8×8 images, 0–16 per pixel), shipped with @fabric/compute. */
  digits: { samples: 1797, features: 64, classes: 10 },
  /** Points of [-1, 1)², class 1 where exactly one coordinate is positive, drawn from the seed. */
  xor: { samples: 400, features: 2, classes: 2 },
  /** Two interleaved spirals with a little noise, drawn from the seed. */
  spirals: { samples: 400, features: 2, classes: 2 },
} as const;
export type NeuralNetworkDatasetName = keyof typeof NEURAL_NETWORK_DATASETS;
const DATASET_NAMES = Object.keys(NEURAL_NETWORK_DATASETS) as [
  NeuralNetworkDatasetName,
  ...NeuralNetworkDatasetName[],
];

export const NEURAL_NETWORK_LIMITS = {
  defaultDataset: 'digits',
  defaultHiddenLayers: [64, 32],
  defaultActivation: 'relu',
  defaultEpochs: 30,
  defaultBatchSize: 32,
  defaultLearningRate: 0.01,
  defaultOptimizer: 'adam',
  defaultValidationSplit: 0.2,
  defaultSeed: 42,
  maxHiddenLayers: 4,
  maxUnits: 512,
  maxEpochs: 500,
  maxBatchSize: 1024,
  maxValidationSplit: 0.5,
  /**
   * Weights and biases of the whole network. The trained weights travel in the result (base64
   * float32), which must fit the server's 1 MB request limit: 120,000 parameters are 640 KB.
   */
  maxParameters: 120_000,
  /** Labels of an inline data set are 0..classes-1. */
  maxClasses: 100,
  minInlineSamples: 2,
} as const;

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${formatCount(min)}`)
    .max(max, `${label} must be at most ${formatCount(max)}`);

const inlineDatasetSchema = z.strictObject(
  {
    inputs: z
      .array(
        z
          .array(z.number({ error: 'dataset.inputs entries must be finite numbers' }), {
            error: 'dataset.inputs must be an array of rows of numbers',
          })
          .min(1, 'dataset.inputs rows must not be empty'),
        { error: 'dataset.inputs must be an array of rows of numbers' },
      )
      .min(
        NEURAL_NETWORK_LIMITS.minInlineSamples,
        `dataset.inputs must have at least ${NEURAL_NETWORK_LIMITS.minInlineSamples} rows`,
      )
      .refine(
        (rows) => rows.every((row) => row.length === rows[0]?.length),
        'dataset.inputs rows must all have the same number of features',
      ),
    labels: z.array(
      wholeNumber('dataset.labels entries', 0, NEURAL_NETWORK_LIMITS.maxClasses - 1),
      { error: 'dataset.labels must be an array of class numbers' },
    ),
  },
  onlyKeys('dataset accepts only inputs and labels'),
);
export type InlineNeuralNetworkDataset = z.infer<typeof inlineDatasetSchema>;

const datasetNameSchema = z.enum(DATASET_NAMES, {
  error: `dataset must be one of ${DATASET_NAMES.join(', ')} or an object { inputs, labels }`,
});

/** A name or an inline data set; an object is checked as one, so its issues name the field. */
const datasetSchema = z
  .custom<NeuralNetworkDatasetName | InlineNeuralNetworkDataset>(() => true)
  .superRefine((value, context) => {
    const raw: unknown = value;
    const isObject = typeof raw === 'object' && raw !== null && !Array.isArray(raw);
    const parsed = (isObject ? inlineDatasetSchema : datasetNameSchema).safeParse(value);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      context.addIssue({
        code: 'custom',
        path: issue.path,
        message: issue.message,
        continue: false,
      });
    }
  });

/** Samples, features and classes of a data set as params give it. */
export function neuralNetworkDatasetShape(
  dataset: NeuralNetworkDatasetName | InlineNeuralNetworkDataset,
): { samples: number; features: number; classes: number } {
  if (typeof dataset === 'string') return NEURAL_NETWORK_DATASETS[dataset];
  return {
    samples: dataset.inputs.length,
    features: dataset.inputs[0]?.length ?? 0,
    classes: dataset.labels.reduce((most, label) => Math.max(most, label), 0) + 1,
  };
}

/** Weights and biases of a dense network with these layer sizes (inputs, hidden..., classes). */
export function denseParameterCount(layerSizes: readonly number[]): number {
  let count = 0;
  for (let index = 1; index < layerSizes.length; index++) {
    const inputs = layerSizes[index - 1] ?? 0;
    const units = layerSizes[index] ?? 0;
    count += inputs * units + units;
  }
  return count;
}

export const neuralNetworkTrainingParamsSchema = z
  .strictObject(
    {
      dataset: datasetSchema.optional(),
      hidden_layers: z
        .array(wholeNumber('hidden_layers entries', 1, NEURAL_NETWORK_LIMITS.maxUnits), {
          error: 'hidden_layers must be an array of layer sizes, like [64, 32]',
        })
        .min(1, 'hidden_layers must have at least one layer')
        .max(
          NEURAL_NETWORK_LIMITS.maxHiddenLayers,
          `hidden_layers may have at most ${NEURAL_NETWORK_LIMITS.maxHiddenLayers} layers`,
        )
        .optional(),
      activation: z
        .enum(NEURAL_NETWORK_ACTIVATIONS, {
          error: `activation must be one of ${NEURAL_NETWORK_ACTIVATIONS.join(', ')}`,
        })
        .optional(),
      epochs: wholeNumber('epochs', 1, NEURAL_NETWORK_LIMITS.maxEpochs).optional(),
      batch_size: wholeNumber('batch_size', 1, NEURAL_NETWORK_LIMITS.maxBatchSize).optional(),
      learning_rate: z
        .number({ error: 'learning_rate must be a number' })
        .gt(0, 'learning_rate must be greater than 0')
        .max(1, 'learning_rate must be at most 1')
        .optional(),
      optimizer: z
        .enum(NEURAL_NETWORK_OPTIMIZERS, {
          error: `optimizer must be one of ${NEURAL_NETWORK_OPTIMIZERS.join(', ')}`,
        })
        .optional(),
      validation_split: z
        .number({ error: 'validation_split must be a number' })
        .min(0, 'validation_split must be at least 0')
        .max(
          NEURAL_NETWORK_LIMITS.maxValidationSplit,
          `validation_split must be at most ${NEURAL_NETWORK_LIMITS.maxValidationSplit}`,
        )
        .optional(),
      seed: z
        .number({ error: 'seed must be a whole number' })
        .int('seed must be a whole number')
        .min(0, 'seed must be at least 0')
        .max(2 ** 32 - 1, 'seed must be below 2^32')
        .optional(),
    },
    onlyKeys(
      'neural_network_training accepts only dataset, hidden_layers, activation, epochs, batch_size, learning_rate, optimizer, validation_split and seed',
    ),
  )
  .superRefine((params, context) => {
    const bytes = new TextEncoder().encode(JSON.stringify(params)).length;
    if (bytes > FREE_PARAMS_MAX_BYTES) {
      context.addIssue({
        code: 'custom',
        ...(typeof params.dataset === 'object' ? { path: ['dataset'] } : {}),
        message: `params must be at most ${FREE_PARAMS_MAX_BYTES / 1024} KB as JSON (an inline dataset included)`,
      });
      return;
    }
    const dataset = params.dataset ?? NEURAL_NETWORK_LIMITS.defaultDataset;
    if (typeof dataset === 'object') {
      if (dataset.labels.length !== dataset.inputs.length) {
        context.addIssue({
          code: 'custom',
          path: ['dataset', 'labels'],
          message: `dataset.labels must have one label per row of dataset.inputs (${dataset.inputs.length}), not ${dataset.labels.length}`,
        });
        return;
      }
      if (!dataset.labels.some((label) => label > 0)) {
        context.addIssue({
          code: 'custom',
          path: ['dataset', 'labels'],
          message: 'dataset.labels must name at least two classes (0 and 1 at least)',
        });
        return;
      }
    }
    const shape = neuralNetworkDatasetShape(dataset);
    const hidden = params.hidden_layers ?? NEURAL_NETWORK_LIMITS.defaultHiddenLayers;
    const parameters = denseParameterCount([shape.features, ...hidden, shape.classes]);
    if (parameters > NEURAL_NETWORK_LIMITS.maxParameters) {
      context.addIssue({
        code: 'custom',
        path: ['hidden_layers'],
        message: `hidden_layers [${hidden.join(', ')}] give ${formatCount(parameters)} weights and biases for ${shape.features} features and ${shape.classes} classes; at most ${formatCount(NEURAL_NETWORK_LIMITS.maxParameters)} are allowed`,
      });
    }
  });
export type NeuralNetworkTrainingParams = z.infer<typeof neuralNetworkTrainingParamsSchema>;

// ---- results ----

const metric = z.number({ error: 'metrics must be finite numbers' });
const ratio = metric.min(0).max(1);
const base64 = (label: string) =>
  z
    .string({ error: `${label} must be base64` })
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, `${label} must be base64`);

/** The format of the trained weights in a result: float32 little-endian bytes, base64. */
export const NEURAL_NETWORK_WEIGHTS_FORMAT = 'float32-le-base64';

export const neuralNetworkTrainingResultSchema = z.object({
  /** One entry per epoch: loss and accuracy averaged over its batches, val_* after the epoch. */
  history: z
    .array(
      z.object({
        epoch: z.number().int().min(1),
        loss: metric,
        accuracy: ratio,
        /** null when validation_split is 0. */
        val_loss: metric.nullable(),
        val_accuracy: ratio.nullable(),
      }),
    )
    .max(NEURAL_NETWORK_LIMITS.maxEpochs),
  /** The trained network evaluated on the training and the validation samples. */
  final: z.object({
    loss: metric,
    accuracy: ratio,
    val_loss: metric.nullable(),
    val_accuracy: ratio.nullable(),
  }),
  /** Weights and biases of the network. */
  parameters: z.number().int(),
  dataset: z.object({
    /** digits, xor, spirals or inline. */
    name: z.string(),
    samples: z.number().int(),
    features: z.number().int(),
    classes: z.number().int(),
    training_samples: z.number().int(),
    validation_samples: z.number().int(),
  }),
  /**
   * The trained network, downloadable: dense layers in order, each `kernel` (inputs × units,
   * row-major) and `bias` (units) as float32 little-endian base64; hidden layers use `activation`,
   * the last one softmax. Inputs are the data set's features as trained (digits: pixel / 16).
   */
  weights: z.object({
    format: z.literal(NEURAL_NETWORK_WEIGHTS_FORMAT),
    activation: z.enum(NEURAL_NETWORK_ACTIVATIONS),
    output_activation: z.literal('softmax'),
    layers: z
      .array(
        z.object({
          kernel_shape: z.tuple([z.number().int().min(1), z.number().int().min(1)]),
          kernel: base64('kernel'),
          bias: base64('bias'),
        }),
      )
      .min(2)
      .max(NEURAL_NETWORK_LIMITS.maxHiddenLayers + 1),
  }),
});
export type NeuralNetworkTrainingResult = z.infer<typeof neuralNetworkTrainingResultSchema>;

// ---- commit, challenge, open ----

/**
 * The sha256 of the weights' bytes (each layer's kernel then bias, in order). The weights are in
 * the result and the server evaluates them itself, so the challenge asks for nothing more;
 * replication compares the loss curves of two nodes.
 */
export const neuralNetworkTrainingCommitmentSchema = z.strictObject({
  weights_sha256: hashHex('weights_sha256'),
});
export const neuralNetworkTrainingChallengeSchema = z.object({});
export const neuralNetworkTrainingOpeningSchema = z.strictObject({});

export type NeuralNetworkTrainingCommitment = z.infer<typeof neuralNetworkTrainingCommitmentSchema>;

// ---- cost model ----

// One core of the reference machine (tfjs-backend-cpu 4.22, Node 20, under load ≈ 2): each
// training sample costs about this much per weight and epoch (forward, backward, update), each
// batch a fixed overhead of the op-by-op engine, and the evaluation after each epoch a forward
// pass over the samples. Measured: digits with the defaults 280–370 ms an epoch (model 282),
// hidden_layers [256, 128] with batch_size 256 1150 ms an epoch (model 1151), xor 37 (model 42).
const NEURAL_NETWORK_COST = {
  msPerSampleWeight: 1.3e-5,
  msPerBatch: 3,
  msPerEvaluatedSampleWeight: 2e-6,
} as const;

function neuralNetworkReferenceMs(params: Record<string, unknown>): number {
  const dataset = params.dataset;
  const shape =
    typeof dataset === 'object' &&
    dataset !== null &&
    Array.isArray((dataset as { inputs?: unknown }).inputs)
      ? neuralNetworkDatasetShape(dataset as InlineNeuralNetworkDataset)
      : NEURAL_NETWORK_DATASETS[
          typeof dataset === 'string' && Object.hasOwn(NEURAL_NETWORK_DATASETS, dataset)
            ? (dataset as NeuralNetworkDatasetName)
            : NEURAL_NETWORK_LIMITS.defaultDataset
        ];
  const hidden = Array.isArray(params.hidden_layers)
    ? (params.hidden_layers as unknown[]).map((units) => finiteNumber(units) ?? 0)
    : NEURAL_NETWORK_LIMITS.defaultHiddenLayers;
  const weights = denseParameterCount([shape.features, ...hidden, shape.classes]);
  const epochs = finiteNumber(params.epochs) ?? NEURAL_NETWORK_LIMITS.defaultEpochs;
  const batchSize = finiteNumber(params.batch_size) ?? NEURAL_NETWORK_LIMITS.defaultBatchSize;
  const split =
    finiteNumber(params.validation_split) ?? NEURAL_NETWORK_LIMITS.defaultValidationSplit;
  const validation = Math.floor(shape.samples * split);
  const training = shape.samples - validation;
  const perEpoch =
    training * weights * NEURAL_NETWORK_COST.msPerSampleWeight +
    Math.ceil(training / Math.max(1, batchSize)) * NEURAL_NETWORK_COST.msPerBatch +
    shape.samples * weights * NEURAL_NETWORK_COST.msPerEvaluatedSampleWeight;
  return epochs * perEpoch;
}

export const neuralNetworkTrainingJobType = {
  displayName: 'Neural Network Training',
  paramsHint: `Optional: dataset (${DATASET_NAMES.join(', ')}, default ${NEURAL_NETWORK_LIMITS.defaultDataset}; or inline {"inputs": [[...]], "labels": [...]}), hidden_layers (default [${NEURAL_NETWORK_LIMITS.defaultHiddenLayers.join(', ')}], 1–${NEURAL_NETWORK_LIMITS.maxHiddenLayers} layers of 1–${NEURAL_NETWORK_LIMITS.maxUnits}), activation (${NEURAL_NETWORK_ACTIVATIONS.join(', ')}), epochs (default ${NEURAL_NETWORK_LIMITS.defaultEpochs}, up to ${NEURAL_NETWORK_LIMITS.maxEpochs}), batch_size (default ${NEURAL_NETWORK_LIMITS.defaultBatchSize}), learning_rate (default ${NEURAL_NETWORK_LIMITS.defaultLearningRate}), optimizer (${NEURAL_NETWORK_OPTIMIZERS.join(', ')}), validation_split (default ${NEURAL_NETWORK_LIMITS.defaultValidationSplit}), seed (default ${NEURAL_NETWORK_LIMITS.defaultSeed}). Example: {"dataset": "spirals", "hidden_layers": [32, 32], "activation": "tanh", "epochs": 200}`,
  paramsSchema: neuralNetworkTrainingParamsSchema,
  resultSchema: neuralNetworkTrainingResultSchema,
  proof: {
    commitment: neuralNetworkTrainingCommitmentSchema,
    challenge: neuralNetworkTrainingChallengeSchema,
    opening: neuralNetworkTrainingOpeningSchema,
  },
  costModel: { referenceMs: neuralNetworkReferenceMs, isParallel: false },
} satisfies JobTypeDefinition;
