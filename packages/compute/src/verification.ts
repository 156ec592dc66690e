// What every job type's checks share: the verdict, and parsing params and results with the
// contract's schemas into a reason a person can read.

export type VerificationOutcome = { ok: true } | { ok: false; reason: string };

export const ok: VerificationOutcome = { ok: true };
export const fail = (reason: string): VerificationOutcome => ({ ok: false, reason });

/** The part of a zod schema verification uses (keeps zod itself out of this package's imports). */
export interface CheckedSchema<T> {
  safeParse(value: unknown):
    | { success: true; data: T }
    | {
        success: false;
        error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
      };
}

function describeIssue(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  const path = issue.path.map(String).join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

/** `value` parsed, or the refusal naming what is wrong with it (`what is malformed: field: …`). */
export function parseWith<T>(
  schema: CheckedSchema<T>,
  value: unknown,
  what: string,
): { data: T } | { outcome: VerificationOutcome } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { data: parsed.data };
  const prefix = what === 'params' ? 'params are invalid' : `${what} is malformed`;
  return { outcome: fail(`${prefix}: ${describeIssue(parsed.error)}`) };
}
