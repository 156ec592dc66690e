import { safeJsonRecord } from '../fields.ts';
import type { JobTypeDefinition } from './definition.ts';

// The AI job types before their kernels exist (transformer_inference, llm_inference): any JSON
// object is accepted and the job waits in the queue (NO_NODE_SUPPORTS_TYPE). Each gets its own
// file, result schema, proof and cost model with its kernel (issue 11), as
// neural_network_training did (neural-network-training.ts).

/** Params of a type without a fixed shape, as UTF-8 JSON: room for a long prompt, not for a data set. */
export const FREE_PARAMS_MAX_BYTES = 64 * 1024;

/** Any JSON object PostgreSQL can store as text, at most FREE_PARAMS_MAX_BYTES. */
export const pendingKernelParamsSchema = safeJsonRecord('params', {
  maxBytes: FREE_PARAMS_MAX_BYTES,
});

const PENDING_HINT =
  'Any JSON object is accepted. No node runs this type yet, so the job waits in the queue.';

function pendingKernelType(displayName: string) {
  return {
    displayName,
    paramsHint: PENDING_HINT,
    paramsSchema: pendingKernelParamsSchema,
  } satisfies JobTypeDefinition;
}

export const transformerInferenceJobType = pendingKernelType('Transformer Inference');
export const llmInferenceJobType = pendingKernelType('LLM Inference');
