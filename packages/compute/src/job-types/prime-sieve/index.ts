import {
  primeSieveChallengeSchema,
  primeSieveCommitmentSchema,
  primeSieveParamsSchema,
  primeSieveResultSchema,
} from '@fabric/contract';
import { parsePrimeSieveParams, resolvePrimeSieveParams } from '../../params.ts';
import { parseWith } from '../../verification.ts';
import type { ComputeJobType } from '../job-type.ts';
import { drawPrimeSieveChallenge, verifyPrimeSieveCommitment } from './proof.ts';
import { verifyPrimeSieve } from './verify.ts';

/** π(limit): kernel.ts sieves by spans, verify.ts checks the edges, proof.ts re-sieves spans. */
export const primeSieve: ComputeJobType = {
  verifyResult(params, result) {
    const parsedParams = parseWith(primeSieveParamsSchema, params, 'params');
    if ('outcome' in parsedParams) return parsedParams.outcome;
    const parsedResult = parseWith(primeSieveResultSchema, result, 'result');
    if ('outcome' in parsedResult) return parsedResult.outcome;
    return verifyPrimeSieve(resolvePrimeSieveParams(parsedParams.data), parsedResult.data);
  },
  drawChallenge: (params, randomInt) =>
    drawPrimeSieveChallenge(parsePrimeSieveParams(params), randomInt),
  // The server re-sieves the chosen spans itself: nothing to open.
  openChallenge: () => ({}),
  verifyProof: (params, result, proof) =>
    verifyPrimeSieveCommitment(
      parsePrimeSieveParams(params),
      primeSieveResultSchema.parse(result),
      primeSieveCommitmentSchema.parse(proof.commitment),
      primeSieveChallengeSchema.parse(proof.challenge),
    ),
  agree(left, right) {
    const a = primeSieveResultSchema.safeParse(left.result);
    const b = primeSieveResultSchema.safeParse(right.result);
    const aSpans = primeSieveCommitmentSchema.safeParse(left.commitment);
    const bSpans = primeSieveCommitmentSchema.safeParse(right.commitment);
    if (!a.success || !b.success || !aSpans.success || !bSpans.success) return false;
    const [leftCounts, rightCounts] = [aSpans.data.segment_counts, bSpans.data.segment_counts];
    return (
      a.data.count === b.data.count &&
      a.data.largest === b.data.largest &&
      leftCounts.length === rightCounts.length &&
      leftCounts.every((count, index) => count === rightCounts[index])
    );
  },
};
