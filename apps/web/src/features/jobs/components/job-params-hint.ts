import {
  FIBONACCI_LIMITS,
  MATRIX_LIMITS,
  PRIME_SIEVE_LIMITS,
  type JobType,
} from '@fabric/contract';

const number = new Intl.NumberFormat('en-US');

/** What each type accepts in params, and what `{}` means, from the contract's limits. */
export const JOB_PARAMS_HINTS: Record<JobType, string> = {
  matrix_multiply: `Optional: size (square, default ${MATRIX_LIMITS.defaultSize}, up to ${number.format(MATRIX_LIMITS.maxSize)}), or rows, inner and cols; seed (default ${MATRIX_LIMITS.defaultSeed}); or inline matrices a and b (up to ${MATRIX_LIMITS.maxInlineSize}×${MATRIX_LIMITS.maxInlineSize}). Example: {"size": 512}`,
  fibonacci: `Optional: n (default ${number.format(FIBONACCI_LIMITS.defaultN)}, up to ${number.format(FIBONACCI_LIMITS.maxN)}). Example: {"n": 5000}`,
  prime_sieve: `Optional: limit (default ${number.format(PRIME_SIEVE_LIMITS.defaultLimit)}, from ${PRIME_SIEVE_LIMITS.minLimit} up to ${number.format(PRIME_SIEVE_LIMITS.maxLimit)}). Example: {"limit": 1000000}`,
  neural_network_training:
    'Any JSON object is accepted. No node runs this type yet, so the job waits in the queue.',
  transformer_inference:
    'Any JSON object is accepted. No node runs this type yet, so the job waits in the queue.',
  llm_inference:
    'Any JSON object is accepted. No node runs this type yet, so the job waits in the queue.',
};
