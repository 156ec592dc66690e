import {
  neuralNetworkTrainingCommitmentSchema,
  neuralNetworkTrainingParamsSchema,
  neuralNetworkTrainingResultSchema,
  type NeuralNetworkTrainingResult,
} from '@fabric/contract';
import { parseNeuralNetworkParams, resolveNeuralNetworkParams } from '../../params.ts';
import { parseWith } from '../../verification.ts';
import { wrongWitness, type ComputeJobType } from '../job-type.ts';
import {
  drawNeuralNetworkChallenge,
  openNeuralNetwork,
  verifyNeuralNetworkOpening,
} from './proof.ts';
import { verifyNeuralNetworkTraining } from './verify.ts';

/**
 * Two replicas agree when their loss curves match epoch by epoch within this relative tolerance
 * (same seed, same runtime: identical; another runtime's last float32 bits may drift a little).
 */
export const NEURAL_NETWORK_AGREEMENT = { relative: 1e-3, absolute: 1e-5 } as const;

const close = (left: number | null, right: number | null) =>
  left === null || right === null
    ? left === right
    : Math.abs(left - right) <=
      NEURAL_NETWORK_AGREEMENT.absolute +
        NEURAL_NETWORK_AGREEMENT.relative * Math.max(Math.abs(left), Math.abs(right));

function curvesAgree(a: NeuralNetworkTrainingResult, b: NeuralNetworkTrainingResult): boolean {
  if (a.parameters !== b.parameters || a.history.length !== b.history.length) return false;
  const samples = Math.max(1, a.dataset.validation_samples);
  return a.history.every((entry, index) => {
    const other = b.history[index];
    return (
      other !== undefined &&
      close(entry.loss, other.loss) &&
      close(entry.val_loss, other.val_loss) &&
      Math.abs(entry.accuracy - other.accuracy) <= 1 / Math.max(1, a.dataset.training_samples) &&
      (entry.val_accuracy === null || other.val_accuracy === null
        ? entry.val_accuracy === other.val_accuracy
        : Math.abs(entry.val_accuracy - other.val_accuracy) <= 1 / samples)
    );
  });
}

/** A dense network trained with TensorFlow.js: kernel.ts trains, verify.ts evaluates the weights. */
export const neuralNetworkTraining: ComputeJobType = {
  verifyResult(params, result) {
    const parsedParams = parseWith(neuralNetworkTrainingParamsSchema, params, 'params');
    if ('outcome' in parsedParams) return parsedParams.outcome;
    const parsedResult = parseWith(neuralNetworkTrainingResultSchema, result, 'result');
    if ('outcome' in parsedResult) return parsedResult.outcome;
    return verifyNeuralNetworkTraining(
      resolveNeuralNetworkParams(parsedParams.data),
      parsedResult.data,
    );
  },
  drawChallenge: () => drawNeuralNetworkChallenge(),
  openChallenge(witness) {
    if (witness.kind !== 'neural_network_training') {
      return wrongWitness('neural_network_training', witness);
    }
    return openNeuralNetwork();
  },
  verifyProof: (params, result, proof) =>
    verifyNeuralNetworkOpening(
      parseNeuralNetworkParams(params),
      neuralNetworkTrainingResultSchema.parse(result),
      neuralNetworkTrainingCommitmentSchema.parse(proof.commitment),
    ),
  agree(left, right) {
    const a = neuralNetworkTrainingResultSchema.safeParse(left.result);
    const b = neuralNetworkTrainingResultSchema.safeParse(right.result);
    return a.success && b.success && curvesAgree(a.data, b.data);
  },
};
