import {
  fibonacciChallengeSchema,
  fibonacciOpeningSchema,
  fibonacciParamsSchema,
  fibonacciResultSchema,
} from '@fabric/contract';
import { parseFibonacciParams, resolveFibonacciParams } from '../../params.ts';
import { parseWith } from '../../verification.ts';
import { wrongWitness, type ComputeJobType } from '../job-type.ts';
import { drawFibonacciChallenge, openFibonacci, verifyFibonacciOpening } from './proof.ts';
import { verifyFibonacci } from './verify.ts';

/** F(n): kernel.ts by fast doubling, verify.ts checks digits and edges, proof.ts opens the value. */
export const fibonacci: ComputeJobType = {
  verifyResult(params, result) {
    const parsedParams = parseWith(fibonacciParamsSchema, params, 'params');
    if ('outcome' in parsedParams) return parsedParams.outcome;
    const parsedResult = parseWith(fibonacciResultSchema, result, 'result');
    if ('outcome' in parsedResult) return parsedResult.outcome;
    return verifyFibonacci(resolveFibonacciParams(parsedParams.data), parsedResult.data);
  },
  drawChallenge: (params) => drawFibonacciChallenge(parseFibonacciParams(params)),
  openChallenge(witness, challenge) {
    if (witness.kind !== 'fibonacci') return wrongWitness('fibonacci', witness);
    return openFibonacci(witness, fibonacciChallengeSchema.parse(challenge));
  },
  verifyProof: (params, result, proof) =>
    verifyFibonacciOpening(
      parseFibonacciParams(params),
      fibonacciResultSchema.parse(result),
      fibonacciChallengeSchema.parse(proof.challenge),
      fibonacciOpeningSchema.parse(proof.opening),
    ),
  agree(left, right) {
    const a = fibonacciResultSchema.safeParse(left.result);
    const b = fibonacciResultSchema.safeParse(right.result);
    return (
      a.success && b.success && a.data.sha256 === b.data.sha256 && a.data.digits === b.data.digits
    );
  },
};
