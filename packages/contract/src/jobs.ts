import { z } from 'zod';
import { JOB_TYPES } from './job-types/index.ts';
import {
  idSchema,
  pageQuerySchema,
  pageSizeQuerySchema,
  safeString,
  timestampSchema,
} from './fields.ts';
import { jobParamsSchemas, jobUsageSchema } from './job-params.ts';

export const jobTypeSchema = z.enum(JOB_TYPES, { error: 'Unknown job type' });

export const jobPrioritySchema = z.union([z.literal(0), z.literal(1)], {
  error: 'Priority must be 0 (Normal) or 1 (High)',
});

/** Submit: the params are checked against the schema of the chosen type; issues point at `params.<field>`. */
export const submitJobRequestSchema = z
  .object({
    job_type: jobTypeSchema,
    params: z
      .record(z.string(), z.unknown(), { error: 'params must be a JSON object' })
      .default({}),
    priority: jobPrioritySchema.default(0),
  })
  .superRefine((body, context) => {
    const parsed = jobParamsSchemas[body.job_type].safeParse(body.params);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      context.addIssue({
        code: 'custom',
        path: ['params', ...issue.path.map(String)],
        message: issue.message,
      });
    }
  });
export type SubmitJobRequest = z.input<typeof submitJobRequestSchema>;

/**
 * How a completed result was checked beyond its own challenge: `agreed` when a node of another
 * provider computed the same result, `not_replicated` when the job was chosen for replication but
 * no node of another provider was free in time. Null: not chosen (or not completed).
 */
export const JOB_REPLICATIONS = ['agreed', 'not_replicated'] as const;
export type JobReplication = (typeof JOB_REPLICATIONS)[number];

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
  /** When the job was submitted. */
  created_at: timestampSchema,
  started_at: timestampSchema.nullable(),
  finished_at: timestampSchema.nullable(),
  /** Attempts started so far, and how many are allowed before the job fails. */
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  /** 0..1 while running, as last reported by the node. */
  progress: z.number().min(0).max(1),
  progress_message: z.string().nullable(),
  /** Why a queued job is not running yet (e.g. NO_NODE_SUPPORTS_TYPE), else null. */
  queue_reason: z.string().nullable(),
  /**
   * A queued job no node has picked up by then fails, free of charge (the server's queue timeout);
   * null unless queued.
   */
  queue_expires_at: timestampSchema.nullable(),
  /** The verified result of a completed job (shape per type: jobResultSchemas), else null. */
  result: z.record(z.string(), z.unknown()).nullable(),
  /** Why the job failed or was cancelled, else null. */
  error: z.string().nullable(),
  /** Usage the node reported for the attempt that produced the result (shown, never billed). */
  usage: jobUsageSchema.nullable(),
  /**
   * The CPU time `actual_cost` charges, in milliseconds: the work a verified result needed (the
   * job type's cost model at its params), or a cancelled run's time on one core; null when the
   * job cost nothing or has not ended.
   */
  billed_cpu_ms: z.number().int().nullable(),
  replication: z.enum(JOB_REPLICATIONS).nullable(),
});
export type Job = z.infer<typeof jobSchema>;

export const jobListQuerySchema = z.object({
  status: safeString('status', 40).optional(),
  page: pageQuerySchema.optional(),
  page_size: pageSizeQuerySchema.optional(),
});
export type JobListQuery = z.input<typeof jobListQuerySchema>;

export const jobListResponseSchema = z.object({
  jobs: z.array(jobSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  /** Totals per status of all the caller's jobs, whatever the filter (tab counts). */
  counts: z.record(z.string(), z.number().int()),
});
export type JobListResponse = z.infer<typeof jobListResponseSchema>;

export const jobIdParamsSchema = z.object({ id: idSchema });
