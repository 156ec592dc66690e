import { DrizzleQueryError } from 'drizzle-orm';

/**
 * Log fields for an error. Drizzle puts the query parameters (password hashes, emails, token
 * hashes) into its error message, so for a failed query only the driver's error and the
 * parameterless SQL are logged.
 */
export function loggableError(error: unknown): { err: unknown; query?: string } {
  if (error instanceof DrizzleQueryError) {
    return { err: error.cause ?? new Error('Database query failed'), query: error.query };
  }
  return { err: error };
}
