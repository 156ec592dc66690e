import type { z } from 'zod';

// What a job type is, as every part sees it: one definition per type (job-types/<type>.ts),
// listed in one table (job-types/index.ts) that the server, the agent and the web client read.
// The compute side (kernel, checks, commit/challenge hooks) lives in @fabric/compute's
// job-types/<type>/ folders, the result view in the web client's features/jobs/job-types/.

export interface JobTypeDefinition {
  /** How people see the type: job lists, bills, notifications. */
  displayName: string;
  /** What params accepts and what `{}` means (Submit Job). */
  paramsHint: string;
  /** Params the server accepts at submit and the agent checks again (400 naming the field). */
  paramsSchema: z.ZodType<Record<string, unknown>>;
  /** The result's shape; absent while no kernel exists (the job waits: NO_NODE_SUPPORTS_TYPE). */
  resultSchema?: z.ZodType<Record<string, unknown>>;
  /** Commit, challenge, open (job-proofs.ts): the shapes of each step. */
  proof?: {
    commitment: z.ZodType<Record<string, unknown>>;
    challenge: z.ZodType<Record<string, unknown>>;
    opening: z.ZodType<Record<string, unknown>>;
  };
  /**
   * Reference CPU time of these (validated) params on one core of the reference machine
   * (cost-model.ts), and whether the kernel spreads over cores. Absent: nothing can be billed.
   */
  costModel?: { referenceMs(params: Record<string, unknown>): number; isParallel: boolean };
}
