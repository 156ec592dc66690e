import { readFileSync } from 'node:fs';
import {
  commitMatrixProduct,
  computeFibonacci,
  computeMatrixProduct,
  countPrimesWithSpans,
  openChallenge,
  parseFibonacciParams,
  parseMatrixParams,
  parsePrimeSieveParams,
  type ProofWitness,
} from '@fabric/compute';
import { agentPaths, type JobUsage, type Lease } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { deviceHeader, PRIME_SIEVE_1E11_RESULT } from './compute-network.ts';

/**
 * The prime count of every 2^24-number span below 10^11 + 1 (they add up to π(10^11) =
 * 4,118,054,813), from packages/compute/scripts/prime-span-counts.ts: the commitment an honest agent
 * sends for π(10^11), which the tests use for jobs long enough to bill real money.
 */
const PRIME_SIEVE_1E11_SPAN_COUNTS = JSON.parse(
  readFileSync(new URL('./fixtures/prime-sieve-1e11-segment-counts.json', import.meta.url), 'utf8'),
) as number[];

export interface HonestProof {
  /** The true result (tests may report another with this commitment). */
  result: Record<string, unknown>;
  commitment: Record<string, unknown>;
  witness: ProofWitness;
}

/** What an honest agent reports and commits to for the lease's job: the real work, done here. */
export function honestProof(leased: Lease): HonestProof {
  switch (leased.job_type) {
    case 'matrix_multiply': {
      const params = parseMatrixParams(leased.params);
      const { result, c } = computeMatrixProduct(params, {}, leased.challenge_seed);
      return { result, ...commitMatrixProduct(c, params.rows, params.cols) };
    }
    case 'fibonacci': {
      const { result, decimal } = computeFibonacci(parseFibonacciParams(leased.params));
      return { result, commitment: {}, witness: { kind: 'fibonacci', decimal } };
    }
    case 'prime_sieve': {
      const params = parsePrimeSieveParams(leased.params);
      const { result, spanCounts } =
        params.limit === PRIME_SIEVE_1E11_RESULT.limit
          ? { result: PRIME_SIEVE_1E11_RESULT, spanCounts: PRIME_SIEVE_1E11_SPAN_COUNTS }
          : countPrimesWithSpans(params);
      return {
        result,
        commitment: { segment_counts: spanCounts },
        witness: { kind: 'prime_sieve' },
      };
    }
    default:
      throw new Error(`no proof for ${leased.job_type}`);
  }
}

/**
 * Reports `result` as an agent does: commit (with the honest commitment unless one is given), then
 * open the challenge. Answers the commit's response when the commit is refused, else complete's.
 */
export async function reportResult(
  app: FastifyInstance,
  deviceToken: string,
  leased: Lease,
  result: Record<string, unknown>,
  usage: JobUsage,
  proof: HonestProof = honestProof(leased),
) {
  const headers = deviceHeader(deviceToken);
  const committed = await app.inject({
    method: 'POST',
    url: agentPaths.commit(leased.job_id),
    headers,
    payload: { lease_id: leased.lease_id, result, commitment: proof.commitment, usage },
  });
  if (committed.statusCode !== 200) return committed;
  const { challenge } = committed.json<{ challenge: Record<string, unknown> }>();
  return app.inject({
    method: 'POST',
    url: agentPaths.complete(leased.job_id),
    headers,
    payload: { lease_id: leased.lease_id, opening: openChallenge(proof.witness, challenge) },
  });
}
