// Commit, challenge, open (see @fabric/contract job-proofs.ts) behind one interface: the agent gets
// its commitment and witness from the kernel, the server draws the challenge after the commitment
// is stored, the agent opens it, and verifyCommittedResult decides. Each type's hooks live in its
// folder (job-types/<type>/proof.ts) and are reached through the registry.
import { jobProofSchemas, type JobType } from '@fabric/contract';
import type { CommittedResult, ProofRecord, ProofWitness } from '../job-types/job-type.ts';
import { computeJobType } from '../job-types/registry.ts';
import type { VerificationOutcome } from '../verification.ts';
import { verifyResult } from '../verify.ts';
import type { RandomInt } from './random-choice.ts';

function typeOrThrow(jobType: JobType) {
  const type = computeJobType(jobType);
  if (!type) throw new Error(`no proof for ${jobType} yet`);
  return type;
}

/** The server's random challenge for a stored commitment (params already valid: the job was accepted). */
export function drawChallenge(
  jobType: JobType,
  params: unknown,
  randomInt: RandomInt,
): Record<string, unknown> {
  return typeOrThrow(jobType).drawChallenge(params, randomInt);
}

/** The agent's answer to a challenge, from what it kept. */
export function openChallenge(witness: ProofWitness, challenge: unknown): Record<string, unknown> {
  // A witness is named by the type whose kernel kept it.
  return typeOrThrow(witness.kind).openChallenge(witness, challenge);
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
  const type = computeJobType(jobType);
  const schemas = (jobProofSchemas as Partial<Record<JobType, Record<string, PartSchema>>>)[
    jobType
  ];
  if (!type || !schemas?.commitment || !schemas.challenge || !schemas.opening) {
    return { ok: false, reason: `no proof for ${jobType} yet` };
  }
  const problem =
    problemIn(schemas.commitment, proof.commitment, 'commitment') ??
    problemIn(schemas.challenge, proof.challenge, 'challenge') ??
    problemIn(schemas.opening, proof.opening, 'opening');
  return problem ?? type.verifyProof(params, result, proof, challengeSeed);
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
  return computeJobType(jobType)?.agree(left, right) ?? false;
}

export type {
  CommittedResult,
  ProofRecord,
  ProofWitness,
  ProvenOutput,
} from '../job-types/job-type.ts';
