import { z } from 'zod';
import { JOB_TYPES } from './job-types/index.ts';
import { safeString } from './fields.ts';

export const marketplaceSearchQuerySchema = z.object({
  query: safeString('Query', 200).optional(),
  category: safeString('Category', 100).optional(),
});

export const marketplaceModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  description: z.string(),
  job_type: z.enum(JOB_TYPES),
});
export type MarketplaceModel = z.infer<typeof marketplaceModelSchema>;

export const marketplaceSearchResponseSchema = z.object({
  models: z.array(marketplaceModelSchema),
});
export type MarketplaceSearchResponse = z.infer<typeof marketplaceSearchResponseSchema>;
