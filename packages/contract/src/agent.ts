import { z } from 'zod';
import { NODE_STATUSES } from './constants.ts';
import { JOB_TYPES } from './job-types/index.ts';
import { idSchema, safeJsonRecord, safeString, timestampSchema } from './fields.ts';
import { jobUsageSchema } from './job-params.ts';
import { hardwareInfoSchema, nodeSchema } from './nodes.ts';
import { jobPrioritySchema, jobTypeSchema } from './jobs.ts';

// The protocol between the node agent and the server, under /api/agent/*.
// A device joins either with register, called with the provider's access token (from
// /api/auth/login), or with enroll, which carries a one-time enrollment code the provider created
// in Add Node (no password on the device at all). Every other call carries the device token they
// return: `Authorization: Bearer <device_token>`. The password is never stored on the device.

export const DEVICE_TOKEN_PREFIX = 'fdt_';
/** A node with no heartbeat for this long is offline and its lease expires. */
export const HEARTBEAT_INTERVAL_SECONDS = 5;
export const LEASE_TIMEOUT_SECONDS = 20;
export const MAX_LEASE_WAIT_SECONDS = 25;
export const DEFAULT_MAX_ATTEMPTS = 3;

export const agentPaths = {
  /** The agent as one file for `node`; public so a plain link in the Add Node dialog downloads it. */
  download: '/api/agent/download',
  register: '/api/agent/register',
  /** register's twin for a device holding a one-time enrollment code instead of a sign-in. */
  enroll: '/api/agent/enroll',
  heartbeat: '/api/agent/heartbeat',
  lease: '/api/agent/lease',
  progress: (jobId: string) => `/api/agent/jobs/${encodeURIComponent(jobId)}/progress`,
  /** Step 1 of reporting a result: the result and the commitment, answered with the challenge. */
  commit: (jobId: string) => `/api/agent/jobs/${encodeURIComponent(jobId)}/commit`,
  /** Step 2: the opening of what the challenge chose; the server verifies and settles. */
  complete: (jobId: string) => `/api/agent/jobs/${encodeURIComponent(jobId)}/complete`,
  fail: (jobId: string) => `/api/agent/jobs/${encodeURIComponent(jobId)}/fail`,
  release: (jobId: string) => `/api/agent/jobs/${encodeURIComponent(jobId)}/release`,
  /** A marketplace file by its sha256, for enrolled devices; resumable (HTTP Range). */
  modelFile: (sha256: string) => `/api/agent/models/${encodeURIComponent(sha256)}`,
} as const;

export const registerNodeRequestSchema = z.object({
  /** Stable per device (kept in the agent's data dir); registering it again re-enrolls the same node. */
  device_id: z
    .string({ error: 'device_id is required' })
    .min(8, 'device_id must be at least 8 characters')
    .max(128, 'device_id must be at most 128 characters')
    .regex(/^[A-Za-z0-9._:-]+$/, 'device_id may contain only letters, digits and . _ : -'),
  name: safeString('name', 100, { trim: true }).min(1, 'name must not be empty').optional(),
  hardware_info: hardwareInfoSchema,
  supported_job_types: z
    .array(z.enum(JOB_TYPES, { error: 'Unknown job type' }))
    .max(JOB_TYPES.length),
  agent_version: safeString('agent_version', 40),
});
export type RegisterNodeRequest = z.infer<typeof registerNodeRequestSchema>;

/** How long an enrollment code from Add Node stays usable. */
export const ENROLLMENT_CODE_TTL_MINUTES = 15;
/** Letters and digits that cannot be mistaken for one another (no 0/O, 1/I/L). */
export const ENROLLMENT_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** 12 characters of a 31-letter alphabet: about 59 bits, shown as XXXX-XXXX-XXXX. */
export const ENROLLMENT_CODE_LENGTH = 12;
const ENROLLMENT_CODE_MESSAGE =
  'enrollment_code must be the 12-character code from Add Node, like ABCD-EFGH-JKMN';

/** Accepts the code as shown or typed: any case, with or without dashes and spaces. */
export const enrollmentCodeSchema = z
  .string({ error: 'enrollment_code is required' })
  .max(40, ENROLLMENT_CODE_MESSAGE)
  .transform((code) => code.replace(/[\s-]/g, '').toUpperCase())
  .pipe(
    z
      .string()
      .length(ENROLLMENT_CODE_LENGTH, ENROLLMENT_CODE_MESSAGE)
      .regex(new RegExp(`^[${ENROLLMENT_CODE_ALPHABET}]+$`), ENROLLMENT_CODE_MESSAGE),
  );

export const enrollNodeRequestSchema = registerNodeRequestSchema.extend({
  enrollment_code: enrollmentCodeSchema,
});
export type EnrollNodeRequest = z.input<typeof enrollNodeRequestSchema>;

/** POST /api/nodes/enrollment-codes: a provider's new one-time code for the agent's --code. */
export const enrollmentCodeResponseSchema = z.object({
  /** As shown to people: XXXX-XXXX-XXXX. */
  code: z.string(),
  expires_at: timestampSchema,
});
export type EnrollmentCodeResponse = z.infer<typeof enrollmentCodeResponseSchema>;

export const registerNodeResponseSchema = z.object({
  node: nodeSchema,
  device_token: z.string(),
});
export type RegisterNodeResponse = z.infer<typeof registerNodeResponseSchema>;

export const heartbeatRequestSchema = z.object({
  hardware_info: hardwareInfoSchema.optional(),
  /** Jobs the agent is running now (normally at most one). */
  running_job_ids: z.array(idSchema).max(16).default([]),
});
export type HeartbeatRequest = z.input<typeof heartbeatRequestSchema>;

export const heartbeatResponseSchema = z.object({
  status: z.enum(NODE_STATUSES),
  /** Running jobs the agent must abort (cancelled, or no longer leased to this node). */
  abort_job_ids: z.array(idSchema),
  server_time: timestampSchema,
});
export type HeartbeatResponse = z.infer<typeof heartbeatResponseSchema>;

export const leaseRequestSchema = z.object({
  /** Long poll: wait up to this long for a job before answering `{ lease: null }`. */
  wait_seconds: z.number().int().min(0).max(MAX_LEASE_WAIT_SECONDS).default(0),
});
export type LeaseRequest = z.input<typeof leaseRequestSchema>;

export const leaseSchema = z.object({
  lease_id: idSchema,
  job_id: idSchema,
  job_type: jobTypeSchema,
  params: z.record(z.string(), z.unknown()),
  priority: jobPrioritySchema,
  attempt: z.number().int(),
  expires_at: timestampSchema,
  /** Seed of the verification challenge (matrix_multiply: the vector r of the projection C·r). */
  challenge_seed: z.number().int(),
});
export type Lease = z.infer<typeof leaseSchema>;

export const leaseResponseSchema = z.object({ lease: leaseSchema.nullable() });
export type LeaseResponse = z.infer<typeof leaseResponseSchema>;

/** Bounds of the free text an agent reports. */
export const PROGRESS_MESSAGE_MAX_LENGTH = 200;
export const FAIL_ERROR_MAX_LENGTH = 2000;

export const progressRequestSchema = z.object({
  lease_id: idSchema,
  progress: z
    .number()
    .min(0, 'progress must be between 0 and 1')
    .max(1, 'progress must be between 0 and 1'),
  message: safeString('message', PROGRESS_MESSAGE_MAX_LENGTH).optional(),
});
export type ProgressRequest = z.infer<typeof progressRequestSchema>;

/** Answer of progress: `abort` is true when the job was cancelled or the lease is no longer valid. */
export const progressResponseSchema = z.object({ abort: z.boolean() });
export type ProgressResponse = z.infer<typeof progressResponseSchema>;

/** Beyond the server's usual limit: a large F(n) is opened as its whole decimal value. */
export const COMPLETE_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

export const commitJobRequestSchema = z.object({
  lease_id: idSchema,
  /** Checked against the job type's result schema by the server; stored as JSON once verified. */
  result: safeJsonRecord('result'),
  /** Per type (jobProofSchemas): fixed before the challenge is known. */
  commitment: safeJsonRecord('commitment'),
  usage: jobUsageSchema,
});
export type CommitJobRequest = z.infer<typeof commitJobRequestSchema>;

/** What the agent must open (per type: jobProofSchemas). The same answer for a repeated commit. */
export const commitJobResponseSchema = z.object({
  challenge: z.record(z.string(), z.unknown()),
});
export type CommitJobResponse = z.infer<typeof commitJobResponseSchema>;

export const completeJobRequestSchema = z.object({
  lease_id: idSchema,
  /** The parts the challenge chose (per type: jobProofSchemas). */
  opening: safeJsonRecord('opening'),
});
export type CompleteJobRequest = z.infer<typeof completeJobRequestSchema>;

/** `accepted` is false when verification refused the result (the job is retried elsewhere). */
export const completeJobResponseSchema = z.object({
  accepted: z.boolean(),
  reason: z.string().nullable(),
});
export type CompleteJobResponse = z.infer<typeof completeJobResponseSchema>;

export const failJobRequestSchema = z.object({
  lease_id: idSchema,
  error: safeString('error', FAIL_ERROR_MAX_LENGTH).min(1, 'error must not be empty'),
  /** False for errors that will recur anywhere (bad params): the job fails at once instead of being retried. */
  retryable: z.boolean(),
  usage: jobUsageSchema.optional(),
});
export type FailJobRequest = z.infer<typeof failJobRequestSchema>;

/** Hand a leased job back unstarted or interrupted (agent shutting down): it is queued again. */
export const releaseJobRequestSchema = z.object({ lease_id: idSchema });
export type ReleaseJobRequest = z.infer<typeof releaseJobRequestSchema>;

export const agentAckResponseSchema = z.object({ ok: z.literal(true) });
