import { z } from 'zod';

// Pieces the job types' definitions share.

/** Names the keys a type accepts when a params object has others. */
export const onlyKeys = (message: string) => ({
  error: (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? message : undefined),
});

export const hashHex = (label: string) =>
  z
    .string({ error: `${label} must be a sha256 in hex` })
    .regex(/^[0-9a-f]{64}$/, `${label} must be 64 lowercase hexadecimal digits`);

export const indexNumber = (label: string) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must be at least 0`);

export function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export const formatCount = (value: number) => new Intl.NumberFormat('en-US').format(value);
