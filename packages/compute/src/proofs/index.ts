// Commit, challenge, open (see @fabric/contract job-proofs.ts): the per-type hooks behind one
// interface. The agent gets its commitment and witness from the kernel, the server draws the
// challenge after the commitment is stored, the agent opens it, and verifyCommittedResult decides.
import {
  fibonacciResultSchema,
  jobProofSchemas,
  matrixMultiplyResultSchema,
  primeSieveResultSchema,
  type JobType,
} from '@fabric/contract';
import type { VerificationOutcome } from '../index.ts';
import { parseFibonacciParams, parseMatrixParams, parsePrimeSieveParams } from '../params.ts';
import { verifyResult } from '../verify.ts';
import {
  drawFibonacciChallenge,
  openFibonacci,
  verifyFibonacciOpening,
  type FibonacciWitness,
} from './fibonacci-proof.ts';
import {
  drawMatrixChallenge,
  openMatrixRows,
  verifyMatrixOpening,
  type MatrixWitness,
} from './matrix-proof.ts';
import { drawPrimeSieveChallenge, verifyPrimeSieveCommitment } from './prime-sieve-proof.ts';
import type { RandomInt } from './random-choice.ts';

export type ProofWitness = MatrixWitness | FibonacciWitness | { kind: 'prime_sieve' };

/** What a kernel hands the agent: the result, the commitment sent with it, what opens it later. */
export interface ProvenOutput {
  result: Record<string, unknown>;
  commitment: Record<string, unknown>;
  witness: ProofWitness;
}

export interface ProofRecord {
  commitment: unknown;
  challenge: unknown;
  opening: unknown;
}

type ProvenJobType = keyof typeof jobProofSchemas;

export function hasProof(jobType: JobType): jobType is ProvenJobType {
  return Object.hasOwn(jobProofSchemas, jobType);
}

/** The server's random challenge for a stored commitment (params already valid: the job was accepted). */
export function drawChallenge(
  jobType: JobType,
  params: unknown,
  randomInt: RandomInt,
): Record<string, unknown> {
  switch (jobType) {
    case 'matrix_multiply':
      return drawMatrixChallenge(parseMatrixParams(params), randomInt);
    case 'prime_sieve':
      return drawPrimeSieveChallenge(parsePrimeSieveParams(params), randomInt);
    case 'fibonacci':
      return drawFibonacciChallenge(parseFibonacciParams(params));
    default:
      throw new Error(`no proof for ${jobType} yet`);
  }
}

/** The agent's answer to a challenge, from what it kept. */
export function openChallenge(witness: ProofWitness, challenge: unknown): Record<string, unknown> {
  switch (witness.kind) {
    case 'matrix_multiply':
      return openMatrixRows(witness, jobProofSchemas.matrix_multiply.challenge.parse(challenge));
    case 'fibonacci':
      return openFibonacci(witness, jobProofSchemas.fibonacci.challenge.parse(challenge));
    case 'prime_sieve':
      return {};
  }
}

interface PartSchema {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
  };
}

/** Why `value` does not fit `schema`, or undefined when it does. */
function problemIn(
  schema: PartSchema,
  value: unknown,
  what: string,
): VerificationOutcome | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  const issue = parsed.error?.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return { ok: false, reason: `${what} is malformed: ${where}${issue?.message ?? 'invalid'}` };
}

function verifyProof(
  jobType: ProvenJobType,
  params: unknown,
  result: unknown,
  proof: ProofRecord,
  challengeSeed: number,
): VerificationOutcome {
  const schemas = jobProofSchemas[jobType];
  const problem =
    problemIn(schemas.commitment, proof.commitment, 'commitment') ??
    problemIn(schemas.challenge, proof.challenge, 'challenge') ??
    problemIn(schemas.opening, proof.opening, 'opening');
  if (problem) return problem;
  switch (jobType) {
    case 'matrix_multiply':
      return verifyMatrixOpening(
        parseMatrixParams(params),
        matrixMultiplyResultSchema.parse(result),
        jobProofSchemas.matrix_multiply.commitment.parse(proof.commitment),
        jobProofSchemas.matrix_multiply.challenge.parse(proof.challenge),
        jobProofSchemas.matrix_multiply.opening.parse(proof.opening),
        challengeSeed,
      );
    case 'prime_sieve':
      return verifyPrimeSieveCommitment(
        parsePrimeSieveParams(params),
        primeSieveResultSchema.parse(result),
        jobProofSchemas.prime_sieve.commitment.parse(proof.commitment),
        jobProofSchemas.prime_sieve.challenge.parse(proof.challenge),
      );
    case 'fibonacci':
      return verifyFibonacciOpening(
        parseFibonacciParams(params),
        fibonacciResultSchema.parse(result),
        jobProofSchemas.fibonacci.challenge.parse(proof.challenge),
        jobProofSchemas.fibonacci.opening.parse(proof.opening),
      );
  }
}

/**
 * The server's whole check of a reported result: the result's own checks (verifyResult), then the
 * opening against the commitment and the challenge. A type without a proof cannot be accepted.
 */
export function verifyCommittedResult(
  jobType: JobType,
  params: unknown,
  result: unknown,
  challengeSeed: number,
  proof: ProofRecord,
): VerificationOutcome {
  const plain = verifyResult(jobType, params, result, challengeSeed);
  if (!plain.ok) return plain;
  if (!hasProof(jobType)) return { ok: false, reason: `no proof for ${jobType} yet` };
  return verifyProof(jobType, params, result, proof, challengeSeed);
}

/** A committed result: what replication compares. */
export interface CommittedResult {
  result: unknown;
  commitment: unknown;
}

/**
 * Whether two nodes computed the same thing. Exact, because the kernels are deterministic: a
 * matrix entry is summed in the same order whatever the thread count (so the Merkle roots of C
 * match bit for bit), span counts and F(n) are integers.
 */
export function replicasAgree(
  jobType: JobType,
  left: CommittedResult,
  right: CommittedResult,
): boolean {
  switch (jobType) {
    case 'matrix_multiply': {
      const schema = jobProofSchemas.matrix_multiply.commitment;
      const a = schema.safeParse(left.commitment);
      const b = schema.safeParse(right.commitment);
      return a.success && b.success && a.data.merkle_root === b.data.merkle_root;
    }
    case 'prime_sieve': {
      const a = primeSieveResultSchema.safeParse(left.result);
      const b = primeSieveResultSchema.safeParse(right.result);
      const spans = jobProofSchemas.prime_sieve.commitment;
      const aSpans = spans.safeParse(left.commitment);
      const bSpans = spans.safeParse(right.commitment);
      return (
        a.success &&
        b.success &&
        aSpans.success &&
        bSpans.success &&
        a.data.count === b.data.count &&
        a.data.largest === b.data.largest &&
        aSpans.data.segment_counts.length === bSpans.data.segment_counts.length &&
        aSpans.data.segment_counts.every(
          (count, index) => count === bSpans.data.segment_counts[index],
        )
      );
    }
    case 'fibonacci': {
      const a = fibonacciResultSchema.safeParse(left.result);
      const b = fibonacciResultSchema.safeParse(right.result);
      return (
        a.success && b.success && a.data.sha256 === b.data.sha256 && a.data.digits === b.data.digits
      );
    }
    default:
      return false;
  }
}
