import type { VerificationOutcome } from '../verification.ts';
import type { RandomInt } from '../proofs/random-choice.ts';
import type { FibonacciWitness } from './fibonacci/proof.ts';
import type { MatrixWitness } from './matrix-multiply/proof.ts';
import type { NeuralNetworkWitness } from './neural-network-training/kernel.ts';

// What a job type brings to the compute side: its result checks and its commit, challenge, open
// hooks. Each type's folder (job-types/<type>/) holds its kernel, checks and proof and exports one
// of these; registry.ts lists them, and verifyResult, the proofs and replication read only that.

/** What a kernel keeps after committing, to open the server's challenge later. */
export type ProofWitness =
  MatrixWitness | FibonacciWitness | NeuralNetworkWitness | { kind: 'prime_sieve' };

/** What a kernel hands the agent: the result, the commitment sent with it, what opens it later. */
export interface ProvenOutput {
  result: Record<string, unknown>;
  commitment: Record<string, unknown>;
  witness: ProofWitness;
}

/** A stored commitment, its challenge and the agent's opening, as the server holds them. */
export interface ProofRecord {
  commitment: unknown;
  challenge: unknown;
  opening: unknown;
}

/** A committed result: what replication compares. */
export interface CommittedResult {
  result: unknown;
  commitment: unknown;
}

export interface ComputeJobType {
  /** The result's own checks, in well under the job's cost (params and result parsed here). */
  verifyResult(params: unknown, result: unknown, challengeSeed: number): VerificationOutcome;
  /** The server's random challenge for a stored commitment (params already accepted). */
  drawChallenge(params: unknown, randomInt: RandomInt): Record<string, unknown>;
  /** The agent's answer to a challenge, from what its kernel kept. */
  openChallenge(witness: ProofWitness, challenge: unknown): Record<string, unknown>;
  /**
   * The opening against the commitment and the challenge; called once the result passed
   * verifyResult and the three parts fit the contract's proof schemas.
   */
  verifyProof(
    params: unknown,
    result: unknown,
    proof: ProofRecord,
    challengeSeed: number,
  ): VerificationOutcome;
  /** Whether two nodes computed the same thing (replication). */
  agree(left: CommittedResult, right: CommittedResult): boolean;
}

/** The witness of another type reached this one: a bug in the caller, not in the agent's input. */
export function wrongWitness(expected: string, witness: ProofWitness): never {
  throw new Error(`a ${expected} challenge cannot be opened with a ${witness.kind} witness`);
}
