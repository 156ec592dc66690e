// The server's check of a reported result before it counts. Every check costs far less than the
// job: O(n²) for an n×n product (never the O(n³) product itself), O(log n) big-number steps for
// F(n), a few hundred primality tests for a prime count. Each type's checks live in its folder
// (job-types/<type>/verify.ts); README.md says what they can and cannot catch.
import type { JobType } from '@fabric/contract';
import { computeJobType } from './job-types/registry.ts';
import { fail, type VerificationOutcome } from './verification.ts';

export { FIBONACCI_EXACT_CHECK_MAX_N } from './job-types/fibonacci/verify.ts';
export {
  PRIME_GAP_CEILING,
  PRIME_SIEVE_EXACT_CHECK_MAX_LIMIT,
} from './job-types/prime-sieve/verify.ts';

const NO_KERNEL_YET = 'no kernel for this job type yet';

/**
 * Checks a reported result against the job's params and the lease's challenge seed. Parses both with
 * the contract's schemas, resolves defaults exactly as the kernels do, and answers `{ ok: true }` or
 * `{ ok: false, reason }` with a reason a person can read.
 */
export function verifyResult(
  jobType: JobType,
  params: unknown,
  result: unknown,
  challengeSeed: number,
): VerificationOutcome {
  const type = computeJobType(jobType);
  return type ? type.verifyResult(params, result, challengeSeed) : fail(NO_KERNEL_YET);
}
