import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { JsonSchema, QueryParameter } from './openapi-routes.ts';

/**
 * Values built from the OpenAPI document's JSON Schemas: one valid example of a body (the base
 * every mutation starts from), and fast-check arbitraries of hostile bodies and query strings.
 */

function typeOf(schema: JsonSchema): string | undefined {
  const type = Array.isArray(schema.type)
    ? schema.type.find((candidate) => candidate !== 'null')
    : schema.type;
  if (type) return type;
  if (schema.properties) return 'object';
  return undefined;
}

function exampleString(schema: JsonSchema, name: string): string {
  if (schema.format === 'uuid') return randomUUID();
  if (schema.pattern) {
    const [sample] = fc.sample(fc.stringMatching(new RegExp(schema.pattern)), {
      numRuns: 1,
      seed: 42,
    });
    if (sample !== undefined) return sample;
  }
  if (/email/i.test(name)) return `fuzz-${randomUUID().slice(0, 8)}@example.com`;
  if (/password/i.test(name)) return `Fuzz-${randomUUID()}`;
  const length = Math.max(schema.minLength ?? 1, 1);
  return 'example'.padEnd(length, 'x').slice(0, schema.maxLength ?? Infinity);
}

function exampleNumber(schema: JsonSchema): number {
  let value = schema.minimum ?? (schema.exclusiveMinimum ?? 0) + 1;
  if (schema.maximum !== undefined) value = Math.min(value, schema.maximum);
  return value;
}

/** A value the schema accepts (required properties only): what a well-behaved client sends. */
export function exampleOf(schema: JsonSchema, name = ''): unknown {
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const choice = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (choice) return exampleOf(choice, name);
  switch (typeOf(schema)) {
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, exampleOf(schema.properties?.[key] ?? {}, key)]),
      );
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => exampleOf(schema.items ?? {}));
    case 'string':
      return exampleString(schema, name);
    case 'integer':
    case 'number':
      return exampleNumber(schema);
    case 'boolean':
      return false;
    default:
      return {};
  }
}

/** Every property path of an object schema, nested objects included (["usage", "cpu_ms"]). */
export function propertyPaths(schema: JsonSchema, prefix: string[] = []): string[][] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, child]) => [
    [...prefix, key],
    ...(typeOf(child) === 'object' ? propertyPaths(child, [...prefix, key]) : []),
  ]);
}

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level += 1) {
    value = level % 2 === 0 ? [value] : { deeper: value };
  }
  return value;
}

export const HUGE_STRING = 'x'.repeat(100 * 1024);
export const DEEP_VALUE = nested(100);
export const LONG_ARRAY = Array.from({ length: 10_000 }, (_, index) => index);

/** Numbers JSON can carry that sit on an edge (NaN and Infinity are not JSON). */
export const NUMBER_EDGES = [
  1e308,
  -1e308,
  -0,
  2 ** 53 + 1,
  Number.MAX_SAFE_INTEGER,
  -1,
  0,
  1.5,
  0.1 + 0.2,
  Number.MIN_VALUE,
  1e-7,
];

/** Number literals only raw JSON text can carry: out of range, more precise than a double. */
export const RAW_NUMBER_LITERALS = [
  '1e400',
  '-1e400',
  '1e-400',
  '123456789012345678901234567890',
  '1.00000000000000000000001',
  '-0.0',
  '1E2',
];

/** UTF-16 code units, lone surrogates and NUL included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udc00',
    'a\ud800b',
    '\udfff\ud800',
    '\u202e\u200b\ufeff',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    '../../../etc/passwd',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '%00',
    '${7*7}',
    HUGE_STRING,
  ),
  fc.string({ unit: anyCodeUnit, maxLength: 64 }),
  fc.string({ unit: 'grapheme', maxLength: 32 }),
  fc.string({ maxLength: 16 }).map((text) => `${text}\u0000${text}`),
);

/** Anything a property could be given instead of what the schema wants. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, [], {}, [null], '0', 'true', 'null', '1e308'),
  fc.constantFrom(...NUMBER_EDGES),
  hostileString,
  fc.constantFrom<unknown>(DEEP_VALUE, LONG_ARRAY, { [HUGE_STRING.slice(0, 1000)]: 1 }),
  fc.jsonValue({ maxDepth: 3 }),
);

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Placeholders JSON.stringify keeps as written, replaced in the text afterwards. */
const KEY_PLACEHOLDER = '\u0001KEY\u0001';
const VALUE_PLACEHOLDER = '\u0001VALUE\u0001';

function withValueAt(base: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const object: Record<string, unknown> =
    typeof base === 'object' && base !== null && !Array.isArray(base)
      ? { ...(base as Record<string, unknown>) }
      : {};
  const next = withValueAt(object[head], rest, value);
  if (next === undefined) Reflect.deleteProperty(object, head);
  else object[head] = next;
  return object;
}

function placeholderText(placeholder: string): string {
  return JSON.stringify(placeholder);
}

export interface BodyCase {
  label: string;
  text: string;
}

/**
 * Hostile JSON bodies for a route from its request schema: one property given a wrong or edge
 * value (or removed), prototype keys, raw number literals, extra properties, or a whole body of
 * the wrong shape. The rest of the body stays valid, so each case reaches the check it aims at.
 */
export function hostileBody(schema: JsonSchema): fc.Arbitrary<BodyCase> {
  const base = exampleOf(schema);
  const paths = propertyPaths(schema);
  const objectPaths = [[], ...paths.filter((path) => schemaAt(schema, path)?.properties)];
  const pathArbitrary =
    paths.length > 0 ? fc.constantFrom(...paths) : fc.constant<string[]>(['anything']);

  const mutated = fc
    .tuple(pathArbitrary, fc.option(hostileValue, { nil: undefined, freq: 8 }))
    .map(([path, value]) => ({
      label: value === undefined ? `without ${path.join('.')}` : `wrong ${path.join('.')}`,
      text: JSON.stringify(withValueAt(base, path, value)),
    }));

  const prototypeKey = fc
    .tuple(
      fc.constantFrom(...objectPaths),
      fc.constantFrom(...PROTOTYPE_KEYS),
      fc.oneof(
        fc.constant<unknown>({ polluted: 'yes' }),
        fc.constant<unknown>({ prototype: { polluted: 'yes' } }),
        hostileValue,
      ),
    )
    .map(([path, key, value]) => {
      const at = valueAt(base, path);
      const object = {
        [KEY_PLACEHOLDER]: value,
        ...(typeof at === 'object' && at !== null ? at : {}),
      };
      return {
        label: `${key} key at ${path.join('.') || 'top level'}`,
        text: JSON.stringify(withValueAt(base, path, object)).replace(
          placeholderText(KEY_PLACEHOLDER),
          JSON.stringify(key),
        ),
      };
    });

  const rawNumber = fc
    .tuple(pathArbitrary, fc.constantFrom(...RAW_NUMBER_LITERALS))
    .map(([path, literal]) => ({
      label: `${path.join('.')} = ${literal}`,
      text: JSON.stringify(withValueAt(base, path, VALUE_PLACEHOLDER)).replace(
        placeholderText(VALUE_PLACEHOLDER),
        literal,
      ),
    }));

  const extraProperties = fc
    .dictionary(fc.oneof(hostileString, fc.string({ maxLength: 8 })), hostileValue, {
      minKeys: 1,
      maxKeys: 4,
    })
    .map((extra) => ({
      label: 'extra properties',
      text: JSON.stringify({ ...extra, ...(base as Record<string, unknown>) }),
    }));

  const wholeBody = fc
    .oneof(
      fc.constantFrom<unknown>(null, [], 'text', 42, true, [base], DEEP_VALUE, LONG_ARRAY),
      hostileValue,
    )
    .map((value) => ({ label: 'a body of the wrong shape', text: JSON.stringify(value) }));

  return fc.oneof(
    { arbitrary: mutated, weight: 5 },
    { arbitrary: prototypeKey, weight: 2 },
    { arbitrary: rawNumber, weight: 1 },
    { arbitrary: extraProperties, weight: 1 },
    { arbitrary: wholeBody, weight: 1 },
  );
}

function schemaAt(schema: JsonSchema, path: string[]): JsonSchema | undefined {
  let current: JsonSchema | undefined = schema;
  for (const key of path) current = current?.properties?.[key];
  return current;
}

function valueAt(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Query values as raw (already percent-encoded) text: edge numbers, bad encodings, huge. */
const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    'abc',
    '-1',
    '0',
    '-0',
    '1.5',
    '1e308',
    '1e400',
    '9007199254740993',
    '99999999999999999999999',
    'NaN',
    'Infinity',
    '0x10',
    'true',
    'null',
    '%00',
    'a%00b',
    '%ED%A0%80',
    '%F0%9F',
    '%',
    '%zz',
    '%E2%80%AE',
    '__proto__',
    'constructor',
    '2026-13',
    '9999-12',
    '0000-01',
    'x'.repeat(10_000),
  ),
  fc.string({ maxLength: 32 }).map((text) => encodeURIComponent(text)),
  fc.integer().map(String),
);

/** Hostile query strings for a route's query parameters (each set, repeated, bracketed or not). */
export function hostileQuery(parameters: QueryParameter[]): fc.Arbitrary<string> {
  const valueFor = (parameter: QueryParameter) =>
    fc.oneof(fc.constant(String(exampleOf(parameter.schema, parameter.name))), hostileQueryValue);
  const assignment = (parameter: QueryParameter) =>
    fc.oneof(
      { arbitrary: valueFor(parameter).map((value) => [`${parameter.name}=${value}`]), weight: 6 },
      {
        arbitrary: fc
          .array(valueFor(parameter), { minLength: 2, maxLength: 3 })
          .map((values) => values.map((value) => `${parameter.name}=${value}`)),
        weight: 1,
      },
      {
        arbitrary: valueFor(parameter).map((value) => [`${parameter.name}[]=${value}`]),
        weight: 1,
      },
      {
        arbitrary: valueFor(parameter).map((value) => [`${parameter.name}[__proto__]=${value}`]),
        weight: 1,
      },
      { arbitrary: fc.constant([parameter.name]), weight: 1 },
    );
  const extras = fc.array(
    fc.constantFrom(
      '__proto__=polluted',
      '__proto__[polluted]=yes',
      'constructor[prototype][polluted]=yes',
      'prototype=1',
      '=',
      '&&',
      `${'k'.repeat(1000)}=v`,
    ),
    { maxLength: 2 },
  );
  return fc
    .tuple(
      fc.tuple(
        ...parameters.map((parameter) =>
          fc.option(assignment(parameter), { nil: undefined, freq: 3 }),
        ),
      ),
      extras,
    )
    .map(([assignments, extra]) =>
      [...assignments.flatMap((parts) => parts ?? []), ...extra].join('&'),
    );
}
