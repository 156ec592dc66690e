import type { JobType } from '@fabric/contract';
import type { ReactNode } from 'react';
import { fibonacciResultView } from './fibonacci';
import { matrixMultiplyResultView } from './matrix-multiply';
import { neuralNetworkTrainingResultView } from './neural-network-training';
import { primeSieveResultView } from './prime-sieve';

/** A type's view of its result; null when the result does not have the type's shape. */
export type ResultView = (result: Record<string, unknown>) => ReactNode;

/**
 * The result view of each job type that has one (one file per type beside this); a type without
 * one shows its result as JSON.
 */
export const RESULT_VIEWS: Partial<Record<JobType, ResultView>> = {
  matrix_multiply: matrixMultiplyResultView,
  fibonacci: fibonacciResultView,
  prime_sieve: primeSieveResultView,
  neural_network_training: neuralNetworkTrainingResultView,
};
