import { z } from 'zod';
import { JOB_TYPES } from './constants.ts';
import { idSchema, timestampSchema } from './fields.ts';

export const jobTypeSchema = z.enum(JOB_TYPES, { error: 'Unknown job type' });

export const jobPrioritySchema = z.union([z.literal(0), z.literal(1)], {
  error: 'Priority must be 0 (Normal) or 1 (High)',
});

export const submitJobRequestSchema = z.object({
  job_type: jobTypeSchema,
  params: z.record(z.string(), z.unknown(), { error: 'Params must be a JSON object' }).default({}),
  priority: jobPrioritySchema.default(0),
});
export type SubmitJobRequest = z.input<typeof submitJobRequestSchema>;

export const jobSchema = z.object({
  id: idSchema,
  job_type: jobTypeSchema,
  /** Known values are JOB_STATUSES; the client shows any other value as its own text. */
  status: z.string(),
  priority: jobPrioritySchema,
  params: z.record(z.string(), z.unknown()),
  /** Dollars; null until known. */
  estimated_cost: z.number().nullable(),
  actual_cost: z.number().nullable(),
  assigned_node_id: idSchema.nullable(),
  created_at: timestampSchema,
});
export type Job = z.infer<typeof jobSchema>;

export const jobListQuerySchema = z.object({
  status: z.string().optional(),
  page: z.coerce
    .number()
    .int('Page must be a whole number')
    .min(1, 'Page must be at least 1')
    .optional(),
  page_size: z.coerce
    .number()
    .int('Page size must be a whole number')
    .min(1, 'Page size must be at least 1')
    .max(100, 'Page size must be at most 100')
    .optional(),
});
export type JobListQuery = z.input<typeof jobListQuerySchema>;

export const jobListResponseSchema = z.object({
  jobs: z.array(jobSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type JobListResponse = z.infer<typeof jobListResponseSchema>;

export const jobIdParamsSchema = z.object({ id: idSchema });
