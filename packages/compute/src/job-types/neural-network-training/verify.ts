// neural_network_training's own checks of a result, in a forward pass instead of the training:
// the shapes and counts the params fix, every number finite, and the returned weights evaluated
// on the job's own training and validation samples (the same seeded split the kernel used) must
// give the loss and accuracy the result claims, at the end of its history too. Made-up weights
// or a polished curve ending are refused; the earlier epochs are what replication compares.
import { denseParameterCount, type NeuralNetworkTrainingResult } from '@fabric/contract';
import type { ResolvedNeuralNetworkParams } from '../../params.ts';
import { fail, ok, type VerificationOutcome } from '../../verification.ts';
import { datasetSummary, loadNeuralNetworkDataset, splitNeuralNetworkDataset } from './datasets.ts';
import { networkLayerSizes } from './kernel.ts';
import { decodeWeights, evaluateOn, useCpuBackend, weightTensors } from './model.ts';

/**
 * How far a reported loss may be from the server's evaluation (relative, plus an absolute floor):
 * float32 sums in another order or another runtime's exp/log move the last bits, never this far.
 */
export const NEURAL_NETWORK_LOSS_TOLERANCE = { relative: 1e-4, absolute: 1e-6 } as const;

const lossesMatch = (claimed: number, measured: number) =>
  Math.abs(claimed - measured) <=
  NEURAL_NETWORK_LOSS_TOLERANCE.absolute +
    NEURAL_NETWORK_LOSS_TOLERANCE.relative * Math.abs(measured);

/** Accuracies may differ by one sample that sits on a tie between two classes. */
const accuraciesMatch = (claimed: number, measured: number, samples: number) =>
  Math.abs(claimed - measured) <= 1 / Math.max(1, samples) + 1e-9;

export function verifyNeuralNetworkTraining(
  params: ResolvedNeuralNetworkParams,
  result: NeuralNetworkTrainingResult,
): VerificationOutcome {
  const dataset = loadNeuralNetworkDataset(params.dataset, params.seed);
  const split = splitNeuralNetworkDataset(dataset.samples, params.validationSplit, params.seed);
  const { training, validation } = split;
  const expected = datasetSummary(dataset, split);
  for (const [key, value] of Object.entries(expected)) {
    const reported = result.dataset[key as keyof typeof expected];
    if (reported !== value) {
      return fail(`dataset.${key} is ${String(reported)}, the job's data set has ${String(value)}`);
    }
  }
  const layerSizes = networkLayerSizes(params, dataset);
  const parameters = denseParameterCount(layerSizes);
  if (result.parameters !== parameters) {
    return fail(
      `parameters is ${result.parameters}, the network [${layerSizes.join(', ')}] has ${parameters}`,
    );
  }
  if (result.history.length !== params.epochs) {
    return fail(`history has ${result.history.length} epochs, the job trains ${params.epochs}`);
  }
  const hasValidation = validation.length > 0;
  for (const [index, entry] of result.history.entries()) {
    if (entry.epoch !== index + 1)
      return fail(`history entry ${index + 1} is for epoch ${entry.epoch}`);
    if (!Number.isFinite(entry.loss) || entry.loss < 0) {
      return fail(`history epoch ${entry.epoch} has a loss that is not a finite number ≥ 0`);
    }
    if (
      (entry.val_loss === null) === hasValidation ||
      (entry.val_accuracy === null) === hasValidation
    ) {
      return fail(
        hasValidation
          ? `history epoch ${entry.epoch} lacks val_loss or val_accuracy`
          : `history epoch ${entry.epoch} has validation metrics, but validation_split leaves no samples`,
      );
    }
  }
  if (result.weights.activation !== params.activation) {
    return fail(
      `weights.activation is ${result.weights.activation}, the job uses ${params.activation}`,
    );
  }
  const decoded = decodeWeights(result.weights, layerSizes);
  if ('problem' in decoded) return fail(decoded.problem);

  const tf = useCpuBackend();
  const tensors = weightTensors(decoded.layers);
  try {
    const trained = evaluateOn(tensors, params.activation, dataset, training);
    const validated = evaluateOn(tensors, params.activation, dataset, validation);
    if (!trained) return fail('the job has no training samples');
    if (!lossesMatch(result.final.loss, trained.loss)) {
      return fail(
        `final.loss is ${result.final.loss}, but the returned weights give ${trained.loss} on the training samples`,
      );
    }
    if (!accuraciesMatch(result.final.accuracy, trained.accuracy, training.length)) {
      return fail(
        `final.accuracy is ${result.final.accuracy}, but the returned weights give ${trained.accuracy} on the training samples`,
      );
    }
    const last = result.history.at(-1);
    const claims = [
      ['final.val_loss', result.final.val_loss, 'loss'],
      ['final.val_accuracy', result.final.val_accuracy, 'accuracy'],
      [`history epoch ${params.epochs} val_loss`, last?.val_loss ?? null, 'loss'],
      [`history epoch ${params.epochs} val_accuracy`, last?.val_accuracy ?? null, 'accuracy'],
    ] as const;
    for (const [label, claimed, kind] of claims) {
      if (!validated) {
        if (claimed !== null)
          return fail(`${label} must be null: validation_split leaves no samples`);
        continue;
      }
      const measured = validated[kind];
      const matches =
        claimed !== null &&
        (kind === 'loss'
          ? lossesMatch(claimed, measured)
          : accuraciesMatch(claimed, measured, validation.length));
      if (!matches) {
        return fail(
          `${label} is ${String(claimed)}, but the returned weights give ${measured} on the validation samples`,
        );
      }
    }
    return ok;
  } finally {
    for (const layer of tensors) tf.dispose([layer.kernel, layer.bias]);
  }
}
