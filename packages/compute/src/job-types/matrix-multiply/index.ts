import {
  matrixMultiplyChallengeSchema,
  matrixMultiplyCommitmentSchema,
  matrixMultiplyOpeningSchema,
  matrixMultiplyParamsSchema,
  matrixMultiplyResultSchema,
} from '@fabric/contract';
import { parseMatrixParams, resolveMatrixParams } from '../../params.ts';
import { fail, parseWith } from '../../verification.ts';
import { wrongWitness, type ComputeJobType } from '../job-type.ts';
import { drawMatrixChallenge, openMatrixRows, verifyMatrixOpening } from './proof.ts';
import { verifyMatrixMultiply } from './verify.ts';

/** C = A·B: kernel.ts multiplies, verify.ts checks in O(n²), proof.ts opens rows of C. */
export const matrixMultiply: ComputeJobType = {
  verifyResult(params, result, challengeSeed) {
    const parsedParams = parseWith(matrixMultiplyParamsSchema, params, 'params');
    if ('outcome' in parsedParams) return parsedParams.outcome;
    const parsedResult = parseWith(matrixMultiplyResultSchema, result, 'result');
    if ('outcome' in parsedResult) return parsedResult.outcome;
    if (!Number.isSafeInteger(challengeSeed)) return fail('challenge seed is not an integer');
    return verifyMatrixMultiply(
      resolveMatrixParams(parsedParams.data),
      parsedResult.data,
      challengeSeed,
    );
  },
  drawChallenge: (params, randomInt) => drawMatrixChallenge(parseMatrixParams(params), randomInt),
  openChallenge(witness, challenge) {
    if (witness.kind !== 'matrix_multiply') return wrongWitness('matrix_multiply', witness);
    return openMatrixRows(witness, matrixMultiplyChallengeSchema.parse(challenge));
  },
  verifyProof: (params, result, proof, challengeSeed) =>
    verifyMatrixOpening(
      parseMatrixParams(params),
      matrixMultiplyResultSchema.parse(result),
      matrixMultiplyCommitmentSchema.parse(proof.commitment),
      matrixMultiplyChallengeSchema.parse(proof.challenge),
      matrixMultiplyOpeningSchema.parse(proof.opening),
      challengeSeed,
    ),
  // The kernel sums every entry in the same order whatever the thread count: honest roots match.
  agree(left, right) {
    const a = matrixMultiplyCommitmentSchema.safeParse(left.commitment);
    const b = matrixMultiplyCommitmentSchema.safeParse(right.commitment);
    return a.success && b.success && a.data.merkle_root === b.data.merkle_root;
  },
};
