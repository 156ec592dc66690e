import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';

/**
 * Shows the server's message under the input it blames (`field` of the error body), when that input
 * is on the form. Returns whether it did.
 */
export function showServerFieldError<TValues extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<TValues>,
  fields: readonly Path<TValues>[],
): boolean {
  if (!(error instanceof ApiError) || !error.serverMessage || !error.field) return false;
  const field = fields.find((name) => name === error.field);
  if (!field) return false;
  setError(field, { type: 'server', message: error.serverMessage }, { shouldFocus: true });
  return true;
}
