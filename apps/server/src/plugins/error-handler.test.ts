import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { conflict, tooManyRequests } from '../lib/http-errors.ts';
import { loggableError } from '../lib/loggable-error.ts';
import { PaymentProviderError } from '../payments/payment-provider.ts';
import { describeError } from './error-handler.ts';

describe('describeError', () => {
  it('answers an HttpError with its status, message, code, field and headers', () => {
    expect(describeError(conflict('Taken', 'email'))).toEqual({
      statusCode: 409,
      body: { message: 'Taken', code: 'CONFLICT', field: 'email' },
      headers: {},
    });
    expect(describeError(tooManyRequests('Slow down', 12.2)).headers).toEqual({
      'retry-after': '13',
    });
  });

  it('answers a payment provider failure with 502 and the message meant for the user', () => {
    expect(
      describeError(new PaymentProviderError('Your card was declined.', { cause: new Error('x') })),
    ).toEqual({
      statusCode: 502,
      body: { message: 'Your card was declined.', code: 'UNAVAILABLE' },
      headers: {},
    });
  });

  it('hides everything about an unexpected error behind a generic 500', () => {
    const answer = describeError(
      new TypeError('Cannot read properties of undefined (secret internals)'),
    );
    expect(answer).toEqual({
      statusCode: 500,
      body: { message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' },
      headers: {},
    });
  });

  it('keeps the status of other client errors but replaces their text', () => {
    const error = Object.assign(new Error('internal wording'), { statusCode: 405 });
    expect(describeError(error)).toMatchObject({
      statusCode: 405,
      body: { message: 'This method is not allowed here' },
    });
  });

  it('treats thrown non-errors as 500', () => {
    expect(describeError('a string').statusCode).toBe(500);
    expect(describeError(null).statusCode).toBe(500);
  });
});

describe('loggableError', () => {
  it('drops the query parameters of a failed drizzle query', () => {
    const cause = new Error('connection lost');
    const fields = loggableError(
      new DrizzleQueryError('update users set password_hash = $1', ['$argon2id$secret'], cause),
    );
    expect(fields).toEqual({ err: cause, query: 'update users set password_hash = $1' });
    expect(JSON.stringify(fields)).not.toContain('argon2id');
  });
});
