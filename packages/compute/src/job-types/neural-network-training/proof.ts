// neural_network_training's commit, challenge, open: the commitment is the sha256 of the weights'
// bytes (each layer's kernel, then bias, float32 little-endian). The weights themselves are in the
// result, which the server evaluates whole (verify.ts), so the challenge asks for nothing more and
// the opening is empty; the proof binds the commitment to the weights that were evaluated.
import {
  neuralNetworkDatasetShape,
  type NeuralNetworkTrainingCommitment,
  type NeuralNetworkTrainingResult,
} from '@fabric/contract';
import type { ResolvedNeuralNetworkParams } from '../../params.ts';
import { fail, ok, type VerificationOutcome } from '../../verification.ts';
import { networkLayerSizes } from './kernel.ts';
import { decodeWeights, weightsSha256 } from './model.ts';

export function drawNeuralNetworkChallenge(): Record<string, never> {
  return {};
}

export function openNeuralNetwork(): Record<string, never> {
  return {};
}

export function verifyNeuralNetworkOpening(
  params: ResolvedNeuralNetworkParams,
  result: NeuralNetworkTrainingResult,
  commitment: NeuralNetworkTrainingCommitment,
): VerificationOutcome {
  const shape = neuralNetworkDatasetShape(params.dataset);
  const decoded = decodeWeights(result.weights, networkLayerSizes(params, shape));
  if ('problem' in decoded) return fail(decoded.problem);
  return weightsSha256(decoded.layers) === commitment.weights_sha256
    ? ok
    : fail('weights_sha256 is not the sha256 of the returned weights');
}
