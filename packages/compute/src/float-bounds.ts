// Rounding-error bounds shared by the verifier and the kernels' own checks. Any float64 evaluation of
// an m-term sum or dot product, in any order (blocked, split across threads), lies within
// γ(m)·(sum of the absolute terms) of the exact value, γ(m) = m·u / (1 − m·u), u = 2^-53
// (Higham, Accuracy and Stability of Numerical Algorithms, ch. 3).

const UNIT_ROUNDOFF = 2 ** -53;

export function gamma(terms: number): number {
  const product = terms * UNIT_ROUNDOFF;
  return product / (1 - product);
}

/**
 * How far two float64 evaluations of the same `terms`-term computation with absolute-value magnitude
 * `magnitude` may differ: each is within γ(terms)·magnitude of the exact value, so twice that; we
 * allow four times (margin for the rounding of `magnitude` itself) plus a few subnormal units
 * against underflow.
 */
export function agreementTolerance(terms: number, magnitude: number): number {
  return 4 * gamma(terms + 2) * magnitude + (terms + 2) * 4 * Number.MIN_VALUE;
}
