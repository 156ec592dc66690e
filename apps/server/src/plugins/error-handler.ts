import { ERROR_CODES, type ErrorBody } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../lib/http-errors.ts';
import { PaymentProviderError } from '../payments/payment-provider.ts';
import { loggableError } from '../lib/loggable-error.ts';
import { RequestValidationError } from './validation.ts';

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';

interface ErrorAnswer {
  statusCode: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/** Fastify's own request errors (body parsing, content type), in words a client developer can act on. */
const FASTIFY_ERRORS: Record<string, { statusCode: number; message: string; code: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    statusCode: 400,
    message: 'Request body must be valid JSON',
    code: ERROR_CODES.invalidJson,
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    statusCode: 400,
    message: 'Request body is empty: send a JSON object',
    code: ERROR_CODES.invalidJson,
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    statusCode: 415,
    message: 'Content-Type must be application/json',
    code: ERROR_CODES.unsupportedMediaType,
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    statusCode: 400,
    message: 'Content-Length does not match the size of the request body',
    code: ERROR_CODES.validation,
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    statusCode: 413,
    message: 'Request body is too large',
    code: ERROR_CODES.payloadTooLarge,
  },
};

const GENERIC_CLIENT_ERRORS: Record<number, string> = {
  400: 'The request is not valid',
  404: 'Not found',
  405: 'This method is not allowed here',
  406: 'The requested response format is not available',
  408: 'The request took too long to arrive',
  413: 'Request body is too large',
  414: 'The URL is too long',
  415: 'This content type is not supported',
  431: 'Request headers are too large',
};

function propertyOf(error: unknown, name: string): unknown {
  return typeof error === 'object' && error !== null && name in error
    ? (error as Record<string, unknown>)[name]
    : undefined;
}

export function describeError(error: unknown): ErrorAnswer {
  if (error instanceof HttpError) {
    return {
      statusCode: error.statusCode,
      body: { message: error.message, code: error.code, field: error.field },
      headers: error.headers,
    };
  }
  // The card network or bank answered no, or could not be reached: say so, never a bare 500.
  if (error instanceof PaymentProviderError) {
    return {
      statusCode: 502,
      body: { message: error.userMessage, code: ERROR_CODES.unavailable },
      headers: {},
    };
  }
  if (error instanceof RequestValidationError) {
    return {
      statusCode: 400,
      body: { message: error.message, code: ERROR_CODES.validation, field: error.field },
      headers: {},
    };
  }
  const code = propertyOf(error, 'code');
  const known = typeof code === 'string' ? FASTIFY_ERRORS[code] : undefined;
  if (known) {
    return {
      statusCode: known.statusCode,
      body: { message: known.message, code: known.code },
      headers: {},
    };
  }
  const statusCode = propertyOf(error, 'statusCode');
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    // Some other client error raised by Fastify or a plugin: its status is meaningful, but its
    // text was not written for API users, so a generic sentence stands in for it.
    return {
      statusCode,
      body: { message: GENERIC_CLIENT_ERRORS[statusCode] ?? 'The request could not be handled' },
      headers: {},
    };
  }
  return {
    statusCode: 500,
    body: { message: INTERNAL_ERROR_MESSAGE, code: ERROR_CODES.internal },
    headers: {},
  };
}

/** The one error handler: every non-2xx body is the contract's `{ message, code?, field? }`. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const answer = describeError(error);
    if (answer.statusCode >= 500) {
      request.log.error(loggableError(error), 'Request failed');
    } else {
      request.log.info(
        { statusCode: answer.statusCode, code: answer.body.code, field: answer.body.field },
        answer.body.message,
      );
    }
    return reply.code(answer.statusCode).headers(answer.headers).send(answer.body);
  });
}
