import { z } from 'zod';
import { JOB_TYPES } from './constants.ts';

export const marketplaceSearchQuerySchema = z.object({
  query: z.string().max(200, 'Query must be at most 200 characters').optional(),
  category: z.string().max(100, 'Category must be at most 100 characters').optional(),
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
