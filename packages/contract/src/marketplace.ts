import { z } from 'zod';
import { JOB_TYPES } from './job-types/index.ts';
import { pageQuerySchema, pageSizeQuerySchema, safeString } from './fields.ts';

// The model marketplace (spec section 7, its result shapes ours): the models and datasets the AI
// job types run on. Each entry names a file in the server's model store by its sha256; enrolled
// devices download it by that checksum and check it before use.

export const MODEL_CATEGORIES = ['llm', 'embedding', 'classification', 'dataset'] as const;
export type ModelCategory = (typeof MODEL_CATEGORIES)[number];

export const MODEL_FORMATS = ['gguf', 'onnx', 'csv', 'csv.gz', 'json'] as const;
export type ModelFormat = (typeof MODEL_FORMATS)[number];

/** A marketplace id: lower-case letters, digits and - . _ (it appears in job params and URLs). */
export const modelIdSchema = z
  .string({ error: 'id must be a string' })
  .min(1, 'id must not be empty')
  .max(100, 'id must be at most 100 characters')
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'id may contain only lower-case letters, digits and . _ -');

export const sha256Schema = z
  .string({ error: 'sha256 must be a string' })
  .regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lower-case hexadecimal digits');

export const marketplaceSearchQuerySchema = z.object({
  query: safeString('query', 200).optional(),
  category: z
    .enum(MODEL_CATEGORIES, { error: `category must be one of ${MODEL_CATEGORIES.join(', ')}` })
    .optional(),
  page: pageQuerySchema.optional(),
  page_size: pageSizeQuerySchema.optional(),
});
export type MarketplaceSearchQuery = z.input<typeof marketplaceSearchQuerySchema>;

export const marketplaceModelSchema = z.object({
  id: modelIdSchema,
  name: z.string(),
  description: z.string(),
  category: z.enum(MODEL_CATEGORIES),
  /** The job types that can use it. */
  job_types: z.array(z.enum(JOB_TYPES)),
  format: z.enum(MODEL_FORMATS),
  size_bytes: z.number().int(),
  sha256: sha256Schema,
  license: z.string(),
  /** Where the file came from (a URL, or how the project made it). */
  source: z.string(),
  /** The memory a device needs to run it. */
  min_memory_bytes: z.number().int(),
  /** Jobs using it are billed at this multiple of the job type's rate. */
  price_multiplier: z.number(),
  /** Made by the project for tests and the embedded default (random weights), not a real model. */
  is_test_model: z.boolean(),
  created_at: z.string(),
});
export type MarketplaceModel = z.infer<typeof marketplaceModelSchema>;

export const marketplaceSearchResponseSchema = z.object({
  models: z.array(marketplaceModelSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type MarketplaceSearchResponse = z.infer<typeof marketplaceSearchResponseSchema>;

export const marketplaceModelParamsSchema = z.object({ id: modelIdSchema });
export const modelFileParamsSchema = z.object({ sha256: sha256Schema });
