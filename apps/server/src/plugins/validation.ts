import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';

/**
 * Request validation with the contract's zod schemas. The first issue becomes the answer:
 * `field` is its path and `message` the contract's text. Where the contract sets no text (a
 * wrong type in an optional field, a body that is not an object), the error map below writes
 * one that still names the field, instead of zod's "Invalid input: expected string".
 */
export class RequestValidationError extends Error {
  readonly statusCode = 400;
  constructor(
    message: string,
    readonly field: string | undefined,
  ) {
    super(message);
    this.name = 'RequestValidationError';
  }
}

const PART_NAMES: Record<string, string> = {
  body: 'Request body',
  querystring: 'Query string',
  params: 'URL parameters',
  headers: 'Request headers',
};

const EXPECTED_DESCRIPTIONS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'a list',
  date: 'a date',
};

function labelOf(path: readonly PropertyKey[]): string {
  const last = path.at(-1);
  if (typeof last === 'number') return `Item ${last + 1} of ${labelOf(path.slice(0, -1))}`;
  const words = String(last).replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function describeIssue(part: string, issue: z.core.$ZodRawIssue): string {
  const path = issue.path ?? [];
  const subject = path.length === 0 ? (PART_NAMES[part] ?? 'Request') : labelOf(path);
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined && path.length > 0) return `${subject} is required`;
    const expected = EXPECTED_DESCRIPTIONS[issue.expected] ?? `of type ${issue.expected}`;
    return `${subject} must be ${expected}`;
  }
  if (issue.code === 'too_big') return `${subject} is too long or too large`;
  if (issue.code === 'too_small') return `${subject} is too short or too small`;
  if (issue.code === 'invalid_value') return `${subject} is not one of the allowed values`;
  return `${subject} is not valid`;
}

export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const part = httpPart ?? 'body';
  return (data: unknown) => {
    const result = schema.safeParse(data, { error: (issue) => describeIssue(part, issue) });
    if (result.success) return { value: result.data };
    const issue = result.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
    return { error: new RequestValidationError(issue?.message ?? 'Request is not valid', field) };
  };
};
