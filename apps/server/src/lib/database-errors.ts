/** True for PostgreSQL's unique_violation (23505), whichever driver raised it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if (typeof current === 'object' && (current as { code?: unknown }).code === '23505')
      return true;
    if (typeof current !== 'object') return false;
  }
  return false;
}
