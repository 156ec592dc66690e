/** A uniform integer in [0, max): crypto.randomInt on the server, a seeded one in tests. */
export type RandomInt = (max: number) => number;

/** `count` distinct indices of [0, size) in ascending order (all of them when size ≤ count). */
export function distinctRandomIndices(size: number, count: number, randomInt: RandomInt): number[] {
  if (size <= count) return Array.from({ length: size }, (_, index) => index);
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(randomInt(size));
  return [...chosen].sort((left, right) => left - right);
}
