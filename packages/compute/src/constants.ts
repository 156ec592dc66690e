// Result conventions the kernels follow and the verifier enforces.

/** Digits kept at each end of a Fibonacci number in its result (`head` and `tail`). */
export const FIBONACCI_EDGE_DIGITS = 50;
/** How many of the smallest primes a prime_sieve result lists in `first`. */
export const PRIME_SIEVE_FIRST_COUNT = 10;
