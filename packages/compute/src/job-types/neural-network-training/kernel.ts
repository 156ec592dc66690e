// neural_network_training: a dense network built with tfjs-layers (glorot-uniform kernels seeded
// from the job's seed, zero biases, softmax output) trained with a tfjs-core optimizer on
// categorical cross-entropy, one synchronous step per batch on the cpu backend. Everything random
// is drawn from the seed: the initial weights, the train/validation split and the order of the
// samples in every epoch (our own Fisher–Yates, never tfjs's Math.random shuffle), so one runtime
// always produces the same loss curve and the same weights.
import type * as tfl from '@tensorflow/tfjs-layers';
import type * as tf from '@tensorflow/tfjs-core';
import { denseParameterCount, NEURAL_NETWORK_WEIGHTS_FORMAT } from '@fabric/contract';
import type { NeuralNetworkTrainingResult } from '@fabric/contract';
import { ProgressTracker, type KernelHooks } from '../../kernels/hooks.ts';
import type { ResolvedNeuralNetworkParams } from '../../params.ts';
import { SeededRandom } from '../../random.ts';
import { tensorFlow } from './runtime.ts';
import {
  NEURAL_NETWORK_SALTS,
  loadNeuralNetworkDataset,
  shuffleInPlace,
  splitNeuralNetworkDataset,
  datasetSummary,
  type NeuralNetworkDataset,
} from './datasets.ts';
import {
  correctCount,
  crossEntropy,
  datasetTensors,
  encodeFloat32,
  evaluateOn,
  useCpuBackend,
  weightsSha256,
  type DenseWeights,
} from './model.ts';

export interface NeuralNetworkWitness {
  kind: 'neural_network_training';
}

/** The layer sizes of the job's network: features, the hidden layers, classes. */
export function networkLayerSizes(
  params: ResolvedNeuralNetworkParams,
  dataset: { features: number; classes: number },
): number[] {
  return [dataset.features, ...params.hiddenLayers, dataset.classes];
}

function buildModel(params: ResolvedNeuralNetworkParams, layerSizes: readonly number[]) {
  const seeds = new SeededRandom(params.seed, NEURAL_NETWORK_SALTS.init);
  const model = tensorFlow().layers.sequential();
  for (let index = 1; index < layerSizes.length; index++) {
    const isOutput = index === layerSizes.length - 1;
    model.add(
      tensorFlow().layers.layers.dense({
        ...(index === 1 ? { inputShape: [layerSizes[0] ?? 1] } : {}),
        units: layerSizes[index] ?? 1,
        activation: isOutput ? 'softmax' : params.activation,
        kernelInitializer: tensorFlow().layers.initializers.glorotUniform({
          seed: seeds.nextUint32(),
        }),
        biasInitializer: 'zeros',
      }),
    );
  }
  return model;
}

function makeOptimizer(tfc: typeof tf, params: ResolvedNeuralNetworkParams): tf.Optimizer {
  if (params.optimizer === 'sgd') return tfc.train.sgd(params.learningRate);
  if (params.optimizer === 'rmsprop') return tfc.train.rmsprop(params.learningRate);
  return tfc.train.adam(params.learningRate);
}

/** The dense layers' current values (kernel, bias) as the layers hold them. */
function layerVariables(model: tfl.Sequential): { kernel: tf.Tensor2D; bias: tf.Tensor1D }[] {
  const variables = model.trainableWeights.map((weight) => weight.read());
  const layers: { kernel: tf.Tensor2D; bias: tf.Tensor1D }[] = [];
  for (let index = 0; index + 1 < variables.length; index += 2) {
    layers.push({
      kernel: variables[index] as tf.Tensor2D,
      bias: variables[index + 1] as tf.Tensor1D,
    });
  }
  return layers;
}

export interface NeuralNetworkOutput {
  result: NeuralNetworkTrainingResult;
  /** sha256 of the weights' bytes: the commitment. */
  weightsSha256: string;
}

export function runNeuralNetworkTraining(
  params: ResolvedNeuralNetworkParams,
  hooks: KernelHooks = {},
): NeuralNetworkTrainingResult {
  return trainNeuralNetwork(params, hooks).result;
}

/** Trains the job's network; the result carries the history, the evaluation and the weights. */
export function trainNeuralNetwork(
  params: ResolvedNeuralNetworkParams,
  hooks: KernelHooks = {},
): NeuralNetworkOutput {
  const tfc = useCpuBackend();
  const progress = new ProgressTracker(hooks, 0);
  progress.checkStop();
  const dataset: NeuralNetworkDataset = loadNeuralNetworkDataset(params.dataset, params.seed);
  const { training, validation } = splitNeuralNetworkDataset(
    dataset.samples,
    params.validationSplit,
    params.seed,
  );
  const layerSizes = networkLayerSizes(params, dataset);
  const model = buildModel(params, layerSizes);
  const optimizer = makeOptimizer(tfc, params);
  const trainable = model.trainableWeights.map((weight) => {
    const variable = weight.read();
    if (!(variable instanceof tfc.Variable)) throw new Error('a layer weight is not a variable');
    return variable;
  });
  const { inputs, oneHot } = datasetTensors(dataset, training);
  const order = Int32Array.from({ length: training.length }, (_, index) => index);
  const shuffle = new SeededRandom(params.seed, NEURAL_NETWORK_SALTS.shuffle);
  const history: NeuralNetworkTrainingResult['history'] = [];
  const batchSize = Math.min(params.batchSize, training.length);

  try {
    progress.report(0, `epoch 0/${params.epochs}`);
    for (let epoch = 1; epoch <= params.epochs; epoch++) {
      shuffleInPlace(order, shuffle);
      let lossSum = 0;
      let correct = 0;
      for (let start = 0; start < order.length; start += batchSize) {
        progress.checkStop();
        const rows = order.subarray(start, Math.min(order.length, start + batchSize));
        const batchIndices = tfc.tensor1d(rows, 'int32');
        const kept: { correct?: tf.Scalar } = {};
        const cost = optimizer.minimize(
          () => {
            const batchInputs = tfc.gather(inputs, batchIndices);
            const batchLabels = tfc.gather(oneHot, batchIndices);
            const probabilities = model.apply(batchInputs, { training: true }) as tf.Tensor2D;
            kept.correct = tfc.keep(correctCount(probabilities, batchLabels));
            return crossEntropy(probabilities, batchLabels);
          },
          true,
          trainable,
        );
        lossSum += (cost?.dataSync()[0] ?? Number.NaN) * rows.length;
        correct += kept.correct?.dataSync()[0] ?? 0;
        cost?.dispose();
        kept.correct?.dispose();
        batchIndices.dispose();
      }
      const loss = lossSum / order.length;
      if (!Number.isFinite(loss)) {
        throw new Error(
          `training diverged at epoch ${epoch} (the loss is not finite): try a smaller learning_rate`,
        );
      }
      const validated = evaluateOn(layerVariables(model), params.activation, dataset, validation);
      history.push({
        epoch,
        loss,
        accuracy: correct / order.length,
        val_loss: validated?.loss ?? null,
        val_accuracy: validated?.accuracy ?? null,
      });
      progress.report(
        epoch / params.epochs,
        `epoch ${epoch}/${params.epochs}: loss ${loss.toFixed(4)}${validated ? `, val_accuracy ${validated.accuracy.toFixed(3)}` : ''}`,
      );
    }

    const layers = layerVariables(model);
    const trained = evaluateOn(layers, params.activation, dataset, training);
    const last = history.at(-1);
    const weights: DenseWeights[] = layers.map((layer) => ({
      kernel: layer.kernel.dataSync() as Float32Array,
      bias: layer.bias.dataSync() as Float32Array,
      inputs: layer.kernel.shape[0],
      units: layer.kernel.shape[1],
    }));
    const result: NeuralNetworkTrainingResult = {
      history,
      final: {
        loss: trained?.loss ?? Number.NaN,
        accuracy: trained?.accuracy ?? 0,
        val_loss: last?.val_loss ?? null,
        val_accuracy: last?.val_accuracy ?? null,
      },
      parameters: denseParameterCount(layerSizes),
      dataset: datasetSummary(dataset, { training, validation }),
      weights: {
        format: NEURAL_NETWORK_WEIGHTS_FORMAT,
        activation: params.activation,
        output_activation: 'softmax',
        layers: weights.map((layer) => ({
          kernel_shape: [layer.inputs, layer.units],
          kernel: encodeFloat32(layer.kernel),
          bias: encodeFloat32(layer.bias),
        })),
      },
    };
    return { result, weightsSha256: weightsSha256(weights) };
  } finally {
    inputs.dispose();
    oneHot.dispose();
    optimizer.dispose();
    model.dispose();
  }
}
