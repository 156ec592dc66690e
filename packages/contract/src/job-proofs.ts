import { z } from 'zod';
import { JOB_TYPE_DEFINITIONS, JOB_TYPES, type JobType } from './job-types/index.ts';

// Commit, challenge, open: how an agent proves it did the work. With its result the agent sends a
// commitment it cannot change afterwards (a Merkle root over the rows of C, the prime count of
// every segment); only then does the server draw a random challenge (which rows, which segments)
// and the agent opens what was chosen, which the server recomputes at a small fraction of the job's
// cost. An agent that skipped a share f of the work is caught with probability at least f, and a
// refused result earns nothing, so guessing never pays. Each type's shapes live in its definition
// (job-types/); the checks in @fabric/compute (job-types/<type>/proof.ts).

export {
  FIBONACCI_MAX_DIGITS,
  FIBONACCI_OPEN_VALUE_ABOVE_N,
  MATRIX_OPENED_ROWS,
  PRIME_SIEVE_CHECK_SPAN,
  PRIME_SIEVE_CHECKED_SEGMENTS,
  fibonacciChallengeSchema,
  fibonacciCommitmentSchema,
  fibonacciOpeningSchema,
  matrixMultiplyChallengeSchema,
  matrixMultiplyCommitmentSchema,
  matrixMultiplyOpeningSchema,
  primeSieveChallengeSchema,
  primeSieveCommitmentSchema,
  primeSieveOpeningSchema,
  type FibonacciChallenge,
  type FibonacciOpening,
  type MatrixMultiplyChallenge,
  type MatrixMultiplyCommitment,
  type MatrixMultiplyOpening,
  type PrimeSieveChallenge,
  type PrimeSieveCommitment,
} from './job-types/index.ts';

export interface JobProofSchemas {
  commitment: z.ZodType<Record<string, unknown>>;
  challenge: z.ZodType<Record<string, unknown>>;
  opening: z.ZodType<Record<string, unknown>>;
}

/** The commit, challenge and open shapes of every type that has them. */
export const jobProofSchemas: Partial<Record<JobType, JobProofSchemas>> = Object.fromEntries(
  JOB_TYPES.flatMap((jobType) => {
    const definition = JOB_TYPE_DEFINITIONS[jobType];
    return 'proof' in definition ? [[jobType, definition.proof]] : [];
  }),
);
