// @fabric/compute: the kernels the agent runs and the checks the server applies to their results.
// Pure TypeScript, no I/O: the agent runs kernels in worker threads, the server calls verifyResult
// before a result counts.
//
// API (implemented in the files named):
//   verifyResult(jobType, params, result, challengeSeed): VerificationOutcome   (verify.ts)
//   challengeVector(seed, length): Float64Array                                  (random.ts)
//   kernels: runMatrixMultiply / runFibonacci / runPrimeSieve                    (kernels/*.ts)

export type VerificationOutcome = { ok: true } | { ok: false; reason: string };
