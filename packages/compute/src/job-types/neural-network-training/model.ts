// What the kernel and the verifier share: TensorFlow.js on its pure-JavaScript cpu backend (works
// in the single-file agent, needs no native binary), the network's evaluation (the kernel's
// val_* after each epoch and the verifier's check run this same code on the same float32 weights,
// so one runtime gives bit-identical numbers) and the weights' float32 little-endian encoding.
import { createHash } from 'node:crypto';
import type * as tf from '@tensorflow/tfjs-core';
import type { NeuralNetworkTrainingResult } from '@fabric/contract';
import type { NeuralNetworkDataset } from './datasets.ts';
import { tensorFlow } from './runtime.ts';

/** log(p) is taken of p clipped to [ε, 1 − ε], as Keras does. */
const PROBABILITY_EPSILON = 1e-7;

/** TensorFlow.js, loaded by loadTensorFlow() (runtime.ts) with its cpu backend selected. */
export function useCpuBackend(): typeof tf {
  return tensorFlow().core;
}
const core = useCpuBackend;

/** One dense layer's weights: kernel is inputs × units, row-major. */
export interface DenseWeights {
  kernel: Float32Array;
  bias: Float32Array;
  inputs: number;
  units: number;
}

export type Activation = 'relu' | 'tanh' | 'sigmoid';

function activate(activation: Activation, values: tf.Tensor): tf.Tensor {
  if (activation === 'relu') return core().relu(values);
  if (activation === 'tanh') return core().tanh(values);
  return core().sigmoid(values);
}

/** Class probabilities (softmax) of the network for a batch of inputs. */
export function forward(
  layers: readonly { kernel: tf.Tensor2D; bias: tf.Tensor1D }[],
  activation: Activation,
  inputs: tf.Tensor2D,
): tf.Tensor2D {
  return core().tidy(() => {
    let values: tf.Tensor = inputs;
    layers.forEach((layer, index) => {
      const linear = core().add(core().matMul(values, layer.kernel), layer.bias);
      values = index === layers.length - 1 ? core().softmax(linear) : activate(activation, linear);
    });
    return values as tf.Tensor2D;
  });
}

/** Mean categorical cross-entropy of probabilities against one-hot labels. */
export function crossEntropy(probabilities: tf.Tensor2D, oneHot: tf.Tensor2D): tf.Scalar {
  return core().tidy(() => {
    const clipped = core().clipByValue(probabilities, PROBABILITY_EPSILON, 1 - PROBABILITY_EPSILON);
    return core().neg(core().mean(core().sum(core().mul(oneHot, core().log(clipped)), 1)));
  });
}

/** How many rows' most probable class is their label. */
export function correctCount(probabilities: tf.Tensor2D, oneHot: tf.Tensor2D): tf.Scalar {
  return core().tidy(() =>
    core().sum(
      core().cast(core().equal(core().argMax(probabilities, 1), core().argMax(oneHot, 1)), 'int32'),
    ),
  );
}

/** The rows `indices` of the data set as an input tensor and one-hot labels. */
export function datasetTensors(
  dataset: NeuralNetworkDataset,
  indices: Int32Array,
): { inputs: tf.Tensor2D; oneHot: tf.Tensor2D } {
  const { features, classes } = dataset;
  const inputs = new Float32Array(indices.length * features);
  const oneHot = new Float32Array(indices.length * classes);
  indices.forEach((sample, row) => {
    inputs.set(dataset.inputs.subarray(sample * features, (sample + 1) * features), row * features);
    oneHot[row * classes + (dataset.labels[sample] ?? 0)] = 1;
  });
  return {
    inputs: core().tensor2d(inputs, [indices.length, features]),
    oneHot: core().tensor2d(oneHot, [indices.length, classes]),
  };
}

/** Loss and accuracy of the network on the rows `indices`; null for no rows. */
export function evaluateOn(
  layers: readonly { kernel: tf.Tensor2D; bias: tf.Tensor1D }[],
  activation: Activation,
  dataset: NeuralNetworkDataset,
  indices: Int32Array,
): { loss: number; accuracy: number } | null {
  if (indices.length === 0) return null;
  const { inputs, oneHot } = datasetTensors(dataset, indices);
  try {
    const [loss, correct] = core().tidy(() => {
      const probabilities = forward(layers, activation, inputs);
      return [
        crossEntropy(probabilities, oneHot).dataSync()[0] ?? Number.NaN,
        correctCount(probabilities, oneHot).dataSync()[0] ?? 0,
      ];
    });
    return { loss, accuracy: correct / indices.length };
  } finally {
    inputs.dispose();
    oneHot.dispose();
  }
}

/** Tensors of decoded weights, for evaluation; dispose them after. */
export function weightTensors(
  layers: readonly DenseWeights[],
): { kernel: tf.Tensor2D; bias: tf.Tensor1D }[] {
  return layers.map((layer) => ({
    kernel: core().tensor2d(layer.kernel, [layer.inputs, layer.units]),
    bias: core().tensor1d(layer.bias),
  }));
}

// ---- float32 little-endian base64 ----

function float32Bytes(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return bytes;
}

export function encodeFloat32(values: Float32Array): string {
  return Buffer.from(float32Bytes(values)).toString('base64');
}

/** The float32 values of base64 text, or undefined when it is not exactly `count` of them. */
export function decodeFloat32(text: string, count: number): Float32Array | undefined {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== count * 4 || bytes.toString('base64') !== text) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Float32Array(count);
  for (let index = 0; index < count; index++) values[index] = view.getFloat32(index * 4, true);
  return values;
}

/** sha256 over every layer's kernel then bias bytes, in order: the commitment. */
export function weightsSha256(layers: readonly DenseWeights[]): string {
  const hash = createHash('sha256');
  for (const layer of layers) {
    hash.update(float32Bytes(layer.kernel));
    hash.update(float32Bytes(layer.bias));
  }
  return hash.digest('hex');
}

/**
 * A result's weights decoded and checked against the layer sizes the params give (inputs,
 * hidden..., classes), or the reason they do not fit.
 */
export function decodeWeights(
  weights: NeuralNetworkTrainingResult['weights'],
  layerSizes: readonly number[],
): { layers: DenseWeights[] } | { problem: string } {
  if (weights.layers.length !== layerSizes.length - 1) {
    return {
      problem: `weights has ${weights.layers.length} layers, the network has ${layerSizes.length - 1}`,
    };
  }
  const layers: DenseWeights[] = [];
  for (const [index, layer] of weights.layers.entries()) {
    const inputs = layerSizes[index] ?? 0;
    const units = layerSizes[index + 1] ?? 0;
    if (layer.kernel_shape[0] !== inputs || layer.kernel_shape[1] !== units) {
      return {
        problem: `weights layer ${index + 1} has kernel_shape [${layer.kernel_shape.join(', ')}], the network needs [${inputs}, ${units}]`,
      };
    }
    const kernel = decodeFloat32(layer.kernel, inputs * units);
    const bias = decodeFloat32(layer.bias, units);
    if (!kernel || !bias) {
      return {
        problem: `weights layer ${index + 1} does not decode to ${inputs}×${units} + ${units} float32 values`,
      };
    }
    if (!kernel.every(Number.isFinite) || !bias.every(Number.isFinite)) {
      return { problem: `weights layer ${index + 1} has a value that is not finite` };
    }
    layers.push({ kernel, bias, inputs, units });
  }
  return { layers };
}
