import { ERROR_CODES, IDEMPOTENCY_KEY_HEADER } from '@fabric/contract';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from './http-errors.ts';

// The Idempotency-Key header of calls that move money or create work (add credits, payout,
// submit): the same key returns the first answer; the key with other parameters is refused,
// as Stripe does.

const IDEMPOTENCY_KEY_PATTERN = /^[\w.:-]{1,200}$/;

/** The Idempotency-Key header, when given: 1-200 letters, digits and . _ : - */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw badRequest(
      'Idempotency-Key must be 1 to 200 letters, digits, dots, colons, dashes or underscores',
      ERROR_CODES.validation,
      'Idempotency-Key',
    );
  }
  return value;
}

/** 409: the key was used before with other parameters (`what` names them). */
export function idempotencyConflict(what: string): HttpError {
  return new HttpError(
    409,
    `This Idempotency-Key was already used for ${what}`,
    ERROR_CODES.idempotencyConflict,
  );
}
