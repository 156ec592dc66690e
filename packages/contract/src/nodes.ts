import { z } from 'zod';
import { ATTEMPT_OUTCOMES, NODE_STATUSES } from './constants.ts';
import { JOB_TYPES } from './job-types/index.ts';
import { idSchema, safeString, timestampSchema } from './fields.ts';
import { jobUsageSchema } from './job-params.ts';

export const nodeStatusSchema = z.enum(NODE_STATUSES);

/** Each text of hardware_info is at most this long (agents clip what they read from the OS). */
export const HARDWARE_TEXT_MAX_LENGTH = 200;

const hardwareText = (label: string) => safeString(label, HARDWARE_TEXT_MAX_LENGTH).optional();

/** What an agent reports about its device, at register and with heartbeats. */
export const hardwareInfoSchema = z.object({
  cpu: hardwareText('cpu'),
  cores: z.number().int().positive().optional(),
  memory: hardwareText('memory'),
  memory_bytes: z.number().int().positive().optional(),
  os: hardwareText('os'),
  arch: hardwareText('arch'),
});
export type HardwareInfo = z.infer<typeof hardwareInfoSchema>;

/** hardware_info as answered: what was stored, read back without the input bounds. */
const storedHardwareInfoSchema = z.object({
  cpu: z.string().optional(),
  cores: z.number().int().positive().optional(),
  memory: z.string().optional(),
  memory_bytes: z.number().int().positive().optional(),
  os: z.string().optional(),
  arch: z.string().optional(),
});

export const nodeSchema = z.object({
  id: idSchema,
  name: z.string().nullable(),
  device_id: z.string(),
  status: nodeStatusSchema,
  jobs_completed: z.number().int(),
  /** Dollars as a decimal string, as the spec's client reads it. */
  lifetime_earnings: z.string(),
  hardware_info: storedHardwareInfoSchema.nullable(),
  last_heartbeat: timestampSchema.nullable(),
  /** Job types the node's agent can run. */
  supported_job_types: z.array(z.enum(JOB_TYPES)),
  agent_version: z.string().nullable(),
  /** The job the node is running now, if any. */
  current_job_id: idSchema.nullable(),
  /**
   * Share of the last 24 hours (or of the time since enrollment, when shorter) the node was
   * online, measured from its heartbeats: 0..1, null before the first heartbeat.
   */
  uptime_24h: z.number().min(0).max(1).nullable(),
  created_at: timestampSchema,
});
export type Node = z.infer<typeof nodeSchema>;

export const nodeListResponseSchema = z.object({ nodes: z.array(nodeSchema) });
export type NodeListResponse = z.infer<typeof nodeListResponseSchema>;

export const nodeIdParamsSchema = z.object({ id: idSchema });

export const nodeEarningsResponseSchema = z.object({
  node_id: idSchema,
  total: z.string(),
  by_day: z.array(z.object({ date: z.string(), amount: z.string() })),
  by_job: z.array(z.object({ job_id: idSchema, amount: z.string(), finished_at: timestampSchema })),
});
export type NodeEarningsResponse = z.infer<typeof nodeEarningsResponseSchema>;

/** One lease of a job on a node, as its provider sees it (no params or results of the customer). */
export const nodeJobAttemptSchema = z.object({
  job_id: idSchema,
  job_type: z.enum(JOB_TYPES),
  attempt_number: z.number().int(),
  started_at: timestampSchema,
  ended_at: timestampSchema.nullable(),
  /** null while the attempt runs. */
  outcome: z.enum(ATTEMPT_OUTCOMES).nullable(),
  error: z.string().nullable(),
  usage: jobUsageSchema.nullable(),
  /** What the node earned for this attempt (USD decimal string). */
  earned: z.string(),
});
export type NodeJobAttempt = z.infer<typeof nodeJobAttemptSchema>;

export const nodeJobsQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .optional(),
});

/** The node's most recent attempts, newest first. */
export const nodeJobsResponseSchema = z.object({ attempts: z.array(nodeJobAttemptSchema) });
export type NodeJobsResponse = z.infer<typeof nodeJobsResponseSchema>;
