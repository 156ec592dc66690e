import { ERROR_CODES } from '@fabric/contract';

/**
 * An error whose message is safe to show to the caller. The one error handler turns it into the
 * contract's `{ message, code, field }` body; anything else becomes a generic 500.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function badRequest(message: string, code: string = ERROR_CODES.validation, field?: string) {
  return new HttpError(400, message, code, field);
}

export function unauthenticated(
  message = 'Authentication required',
  code: string = ERROR_CODES.unauthenticated,
) {
  return new HttpError(401, message, code);
}

export function forbidden(message: string) {
  return new HttpError(403, message, ERROR_CODES.forbidden);
}

export function notFound(message: string) {
  return new HttpError(404, message, ERROR_CODES.notFound);
}

export function conflict(message: string, field?: string) {
  return new HttpError(409, message, ERROR_CODES.conflict, field);
}

export function tooManyRequests(message: string, retryAfterSeconds: number) {
  return new HttpError(429, message, ERROR_CODES.rateLimited, undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
}
