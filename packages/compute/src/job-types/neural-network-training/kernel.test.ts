import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs-core';
import type { NeuralNetworkTrainingResult } from '@fabric/contract';
import { describe, expect, it } from 'vitest';
import { KernelAbortedError } from '../../kernels/hooks.ts';
import { parseNeuralNetworkParams } from '../../params.ts';
import { replicasAgree, verifyCommittedResult } from '../../proofs/index.ts';
import {
  polishedCurveNeuralNetworkCheat,
  randomWeightsNeuralNetworkCheat,
} from '../../testing/cheats.ts';
import { verifyResult } from '../../verify.ts';
import { digitsCsvGz, loadNeuralNetworkDataset, splitNeuralNetworkDataset } from './datasets.ts';
import { trainNeuralNetwork } from './kernel.ts';
import { loadTensorFlow } from './runtime.ts';

// Loaded once, as the agent's kernel entry and the server do before any network.
await loadTensorFlow();

const TYPE = 'neural_network_training';
// Digits with every default but the epochs: 5 of the default 30 already pass 0.9 and keep the
// test short (about 1.5 s here).
const DIGITS = { epochs: 5 };
const XOR = { dataset: 'xor', epochs: 25, hidden_layers: [16, 16] } as const;

const train = (params: Record<string, unknown>) =>
  trainNeuralNetwork(parseNeuralNetworkParams(params));
const proofOf = (commitment: Record<string, unknown>) => ({
  commitment,
  challenge: {},
  opening: {},
});
const commitmentOf = (output: { weightsSha256: string }) => ({
  weights_sha256: output.weightsSha256,
});

const digits = train(DIGITS);
const xor = train(XOR);

describe('neural_network_training kernel', () => {
  it('learns the digits past 0.9 validation accuracy with the default network', () => {
    const { result } = digits;
    expect(result.dataset).toEqual({
      name: 'digits',
      samples: 1797,
      features: 64,
      classes: 10,
      training_samples: 1438,
      validation_samples: 359,
    });
    expect(result.parameters).toBe(64 * 64 + 64 + 64 * 32 + 32 + 32 * 10 + 10);
    expect(result.history.map((entry) => entry.epoch)).toEqual([1, 2, 3, 4, 5]);
    expect(result.history.at(-1)?.loss).toBeLessThan(result.history[0]?.loss ?? 0);
    expect(result.final.val_accuracy).toBeGreaterThan(0.9);
    expect(result.final.val_accuracy).toBe(result.history.at(-1)?.val_accuracy);
    expect(result.weights.layers.map((layer) => layer.kernel_shape)).toEqual([
      [64, 64],
      [64, 32],
      [32, 10],
    ]);
    expect(verifyResult(TYPE, DIGITS, result, 0)).toEqual({ ok: true });
  });

  it('gives the same history and weights for the same seed, others for another seed', () => {
    const again = train(XOR);
    expect(again.result).toEqual(xor.result);
    expect(again.weightsSha256).toBe(xor.weightsSha256);
    const other = train({ ...XOR, seed: 7 });
    expect(other.result.history).not.toEqual(xor.result.history);
    expect(
      replicasAgree(
        TYPE,
        { result: again.result, commitment: {} },
        { result: xor.result, commitment: {} },
      ),
    ).toBe(true);
    expect(
      replicasAgree(
        TYPE,
        { result: other.result, commitment: {} },
        { result: xor.result, commitment: {} },
      ),
    ).toBe(false);
  });

  it('learns XOR, runs the spirals and an inline data set, with or without validation', () => {
    expect(xor.result.final.val_accuracy).toBeGreaterThan(0.85);
    expect(verifyResult(TYPE, XOR, xor.result, 0)).toEqual({ ok: true });

    const spiralsParams = {
      dataset: 'spirals',
      epochs: 3,
      activation: 'tanh',
      optimizer: 'rmsprop',
    };
    const spirals = train(spiralsParams).result;
    expect(spirals.dataset).toMatchObject({ name: 'spirals', samples: 400, classes: 2 });
    expect(verifyResult(TYPE, spiralsParams, spirals, 0)).toEqual({ ok: true });

    const inline = {
      dataset: {
        inputs: [
          [0, 0],
          [0, 1],
          [1, 0],
          [1, 1],
          [0.1, 0.9],
          [0.9, 0.1],
        ],
        labels: [0, 1, 1, 0, 1, 1],
      },
      hidden_layers: [4],
      activation: 'sigmoid',
      optimizer: 'sgd',
      epochs: 2,
      batch_size: 4,
      validation_split: 0,
    };
    const trained = train(inline).result;
    expect(trained.dataset).toMatchObject({ name: 'inline', samples: 6, features: 2, classes: 2 });
    expect(trained.final.val_accuracy).toBeNull();
    expect(trained.history.every((entry) => entry.val_loss === null)).toBe(true);
    expect(verifyResult(TYPE, inline, trained, 0)).toEqual({ ok: true });
  });

  it('draws the same seeded split on both sides, and frees every tensor it made', () => {
    const first = splitNeuralNetworkDataset(1797, 0.2, 42);
    expect(first).toEqual(splitNeuralNetworkDataset(1797, 0.2, 42));
    expect(new Set([...first.training, ...first.validation]).size).toBe(1797);
    expect(loadNeuralNetworkDataset('xor', 3).inputs).toEqual(
      loadNeuralNetworkDataset('xor', 3).inputs,
    );
    const before = tf.memory().numTensors;
    train({ dataset: 'xor', epochs: 1 });
    expect(tf.memory().numTensors).toBe(before);
  });

  it('reports progress every epoch and stops when asked', () => {
    const messages: string[] = [];
    trainNeuralNetwork(parseNeuralNetworkParams({ dataset: 'xor', epochs: 3 }), {
      onProgress: (fraction, message) => messages.push(`${fraction}: ${message ?? ''}`),
    });
    expect(messages[0]).toBe('0: epoch 0/3');
    expect(messages.filter((message) => message.includes('loss'))).toHaveLength(3);
    expect(messages.at(-1)).toMatch(/^1: epoch 3\/3: loss [0-9.]+, val_accuracy [0-9.]+$/);
    let polls = 0;
    expect(() =>
      trainNeuralNetwork(parseNeuralNetworkParams({ dataset: 'xor', epochs: 3 }), {
        shouldStop: () => ++polls > 5,
      }),
    ).toThrow(KernelAbortedError);
  });

  it('ships the digits exactly as datasets/digits.csv.gz', () => {
    const file = readFileSync(new URL('../../../datasets/digits.csv.gz', import.meta.url));
    expect(digitsCsvGz().equals(file)).toBe(true);
    expect(createHash('sha256').update(file).digest('hex')).toBe(
      '46abec6b12486ad9e51943373abcf22bbea1b5a51a1619b361570d8893f1464a',
    );
  });
});

describe('neural_network_training verification', () => {
  const honest = digits.result;
  const refuse = (result: NeuralNetworkTrainingResult, reason: RegExp) => {
    const outcome = verifyResult(TYPE, DIGITS, result, 0);
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? '' : outcome.reason).toMatch(reason);
  };

  it('accepts the honest result with its commitment, and refuses another commitment', () => {
    expect(verifyCommittedResult(TYPE, DIGITS, honest, 0, proofOf(commitmentOf(digits)))).toEqual({
      ok: true,
    });
    expect(
      verifyCommittedResult(TYPE, DIGITS, honest, 0, proofOf(commitmentOf(xor))),
    ).toMatchObject({
      ok: false,
      reason: 'weights_sha256 is not the sha256 of the returned weights',
    });
  });

  it('refuses random weights sent with an honest curve, and a polished last epoch', () => {
    for (const cheat of [
      randomWeightsNeuralNetworkCheat(DIGITS, honest),
      polishedCurveNeuralNetworkCheat(DIGITS, honest),
    ]) {
      const outcome = verifyCommittedResult(
        TYPE,
        DIGITS,
        cheat.result,
        0,
        proofOf(cheat.commitment),
      );
      expect(outcome.ok, cheat.how).toBe(false);
    }
    refuse(
      randomWeightsNeuralNetworkCheat(DIGITS, honest).result as NeuralNetworkTrainingResult,
      /final.loss is .* but the returned weights give/,
    );
    refuse(
      polishedCurveNeuralNetworkCheat(DIGITS, honest).result as NeuralNetworkTrainingResult,
      /val_loss is .* but the returned weights give/,
    );
  });

  it('refuses wrong shapes, counts and numbers', () => {
    refuse(
      { ...honest, history: honest.history.slice(1) },
      /history has 4 epochs, the job trains 5/,
    );
    refuse({ ...honest, parameters: 100 }, /parameters is 100/);
    refuse(
      { ...honest, dataset: { ...honest.dataset, validation_samples: 1 } },
      /dataset.validation_samples/,
    );
    refuse({ ...honest, final: { ...honest.final, accuracy: 1 } }, /final.accuracy is 1/);
    const layers = honest.weights.layers;
    const [first, second, third] = layers;
    if (!first || !second || !third) throw new Error('the default network has three layers');
    refuse(
      { ...honest, weights: { ...honest.weights, layers: layers.slice(0, 2) } },
      /weights has 2 layers, the network has 3/,
    );
    const nan = Buffer.from(new Float32Array(10).fill(Number.NaN).buffer).toString('base64');
    refuse(
      {
        ...honest,
        weights: {
          ...honest.weights,
          layers: [first, second, { ...third, bias: nan }],
        },
      },
      /weights layer 3 has a value that is not finite/,
    );
    refuse(
      {
        ...honest,
        weights: {
          ...honest.weights,
          layers: [{ ...first, kernel: 'AAAA' }, ...layers.slice(1)],
        },
      },
      /weights layer 1 does not decode/,
    );
    expect(verifyResult(TYPE, { epochs: 0 }, honest, 0)).toMatchObject({
      ok: false,
      reason: 'params are invalid: epochs: epochs must be at least 1',
    });
  });
});
