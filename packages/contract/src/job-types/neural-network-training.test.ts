import { describe, expect, it } from 'vitest';
import { jobCostModel } from '../cost-model.ts';
import { submitJobRequestSchema } from '../jobs.ts';
import { neuralNetworkTrainingParamsSchema } from './neural-network-training.ts';

function firstIssue(params: unknown) {
  const parsed = submitJobRequestSchema.safeParse({ job_type: 'neural_network_training', params });
  const issue = parsed.error?.issues[0];
  return issue && { path: issue.path.join('.'), message: issue.message };
}

describe('neural_network_training params', () => {
  it('accept {} and every documented field', () => {
    expect(neuralNetworkTrainingParamsSchema.safeParse({}).success).toBe(true);
    const full = {
      dataset: {
        inputs: [
          [0, 1],
          [1, 0],
          [1, 1],
        ],
        labels: [0, 1, 2],
      },
      hidden_layers: [8, 8, 8, 8],
      activation: 'tanh',
      epochs: 500,
      batch_size: 1024,
      learning_rate: 1,
      optimizer: 'rmsprop',
      validation_split: 0,
      seed: 2 ** 32 - 1,
    };
    expect(neuralNetworkTrainingParamsSchema.safeParse(full).success).toBe(true);
  });

  it.each([
    [
      { dataset: 'mnist' },
      'params.dataset',
      'dataset must be one of digits, xor, spirals or an object { inputs, labels }',
    ],
    [
      { dataset: { inputs: [[1, 2], [3]], labels: [0, 1] } },
      'params.dataset.inputs',
      'dataset.inputs rows must all have the same number of features',
    ],
    [
      { dataset: { inputs: [[1], [2]], labels: [0, 1.5] } },
      'params.dataset.labels.1',
      'dataset.labels entries must be a whole number',
    ],
    [
      { dataset: { inputs: [[1], [2]], labels: [0] } },
      'params.dataset.labels',
      'dataset.labels must have one label per row of dataset.inputs (2), not 1',
    ],
    [
      { dataset: { inputs: [[1], [2]], labels: [0, 0] } },
      'params.dataset.labels',
      'dataset.labels must name at least two classes (0 and 1 at least)',
    ],
    [{ hidden_layers: [] }, 'params.hidden_layers', 'hidden_layers must have at least one layer'],
    [
      { hidden_layers: [1, 2, 3, 4, 5] },
      'params.hidden_layers',
      'hidden_layers may have at most 4 layers',
    ],
    [
      { hidden_layers: [513] },
      'params.hidden_layers.0',
      'hidden_layers entries must be at most 512',
    ],
    [
      { hidden_layers: [512, 512] },
      'params.hidden_layers',
      'hidden_layers [512, 512] give 301,066 weights and biases for 64 features and 10 classes; at most 120,000 are allowed',
    ],
    [{ activation: 'gelu' }, 'params.activation', 'activation must be one of relu, tanh, sigmoid'],
    [{ epochs: 0 }, 'params.epochs', 'epochs must be at least 1'],
    [{ epochs: 501 }, 'params.epochs', 'epochs must be at most 500'],
    [{ batch_size: 1025 }, 'params.batch_size', 'batch_size must be at most 1,024'],
    [{ learning_rate: 0 }, 'params.learning_rate', 'learning_rate must be greater than 0'],
    [{ optimizer: 'adagrad' }, 'params.optimizer', 'optimizer must be one of adam, sgd, rmsprop'],
    [{ validation_split: 0.6 }, 'params.validation_split', 'validation_split must be at most 0.5'],
    [{ seed: 1.5 }, 'params.seed', 'seed must be a whole number'],
  ])('refuse %j naming %s', (params, path, message) => {
    expect(firstIssue(params)).toEqual({ path, message });
  });

  it('bound an inline data set to 64 KB of params', () => {
    const inputs = Array.from({ length: 4000 }, () => [0.123456, 0.654321]);
    const labels = inputs.map((_, index) => index % 2);
    expect(firstIssue({ dataset: { inputs, labels } })).toEqual({
      path: 'params.dataset',
      message: 'params must be at most 64 KB as JSON (an inline dataset included)',
    });
  });

  it('cost more with more samples, weights and epochs, on one core', () => {
    const base = jobCostModel('neural_network_training', {});
    expect(base.isParallel).toBe(false);
    expect(base.referenceCpuMs).toBeGreaterThan(1000);
    expect(jobCostModel('neural_network_training', { epochs: 60 }).referenceCpuMs).toBeGreaterThan(
      1.9 * base.referenceCpuMs,
    );
    expect(
      jobCostModel('neural_network_training', { hidden_layers: [256, 128] }).referenceCpuMs,
    ).toBeGreaterThan(base.referenceCpuMs);
    expect(jobCostModel('neural_network_training', { dataset: 'xor' }).referenceCpuMs).toBeLessThan(
      base.referenceCpuMs,
    );
  });
});
