import { z } from 'zod';
import { JOB_TYPES, NODE_STATUSES } from './constants.ts';
import { idSchema, timestampSchema } from './fields.ts';

export const nodeStatusSchema = z.enum(NODE_STATUSES);

export const hardwareInfoSchema = z.object({
  cpu: z.string().optional(),
  cores: z.number().int().positive().optional(),
  memory: z.string().optional(),
  memory_bytes: z.number().int().positive().optional(),
  os: z.string().optional(),
  arch: z.string().optional(),
});
export type HardwareInfo = z.infer<typeof hardwareInfoSchema>;

export const nodeSchema = z.object({
  id: idSchema,
  name: z.string().nullable(),
  device_id: z.string(),
  status: nodeStatusSchema,
  jobs_completed: z.number().int(),
  /** Dollars as a decimal string, as the spec's client reads it. */
  lifetime_earnings: z.string(),
  hardware_info: hardwareInfoSchema.nullable(),
  last_heartbeat: timestampSchema.nullable(),
  /** Job types the node's agent can run. */
  supported_job_types: z.array(z.enum(JOB_TYPES)),
  agent_version: z.string().nullable(),
  /** The job the node is running now, if any. */
  current_job_id: idSchema.nullable(),
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
