import { describe, expect, it } from 'vitest';
import { failJobRequestSchema, progressRequestSchema, registerNodeRequestSchema } from './agent.ts';
import { registerRequestSchema, updateProfileRequestSchema } from './auth.ts';
import {
  JSON_MAX_DEPTH,
  optionalText,
  requiredText,
  safeJsonRecord,
  safeString,
  unsafeTextProblem,
} from './fields.ts';
import { FREE_PARAMS_MAX_BYTES, pendingKernelParamsSchema } from './job-params.ts';
import { submitJobRequestSchema } from './jobs.ts';
import { hardwareInfoSchema } from './nodes.ts';
import { transactionListQuerySchema } from './payment.ts';

const NUL = '\u0000';

function firstIssue(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const issue = result.error?.issues[0];
  return issue ? { path: issue.path.join('.'), message: issue.message } : undefined;
}

describe('unsafeTextProblem', () => {
  it('names NUL and lone surrogates, high or low, anywhere in the text', () => {
    expect(unsafeTextProblem(`a${NUL}b`)).toBe('must not contain a NUL character (\\u0000)');
    for (const text of ['\ud800', 'x\udbff', '\udc00x', 'a\udfffb', '\ud83d', '\ude00\ud83d']) {
      expect(unsafeTextProblem(text)).toBe('must not contain a lone surrogate (invalid Unicode)');
    }
  });

  it('accepts every other character, surrogate pairs (emoji) included', () => {
    for (const text of ['', 'Ada', 'Zoë', '東京', '🚀', 'a\u0001b', '\ufffd', 'tab\there']) {
      expect(unsafeTextProblem(text)).toBeUndefined();
    }
  });
});

describe('safeString, requiredText and optionalText', () => {
  it('refuse NUL and lone surrogates with the label and the reason', () => {
    expect(firstIssue(safeString('cpu', 200).safeParse(`x${NUL}`))).toEqual({
      path: '',
      message: 'cpu must not contain a NUL character (\\u0000)',
    });
    expect(firstIssue(requiredText('Name').safeParse('Ada \ud800'))).toEqual({
      path: '',
      message: 'Name must not contain a lone surrogate (invalid Unicode)',
    });
    expect(optionalText('Domain').safeParse(NUL).success).toBe(false);
  });

  it('bound the length, after trimming when asked', () => {
    expect(firstIssue(safeString('cpu', 3).safeParse('abcd'))).toEqual({
      path: '',
      message: 'cpu must be at most 3 characters',
    });
    expect(safeString('name', 3, { trim: true }).parse('  abc  ')).toBe('abc');
    expect(requiredText('Name').safeParse('   ').success).toBe(false);
    expect(optionalText('Name').parse(undefined)).toBeUndefined();
  });

  it('are the fields of sign-up, profile and the agent protocol', () => {
    const signUp = { email: 'a@b.co', password: 'longenough', role: 'enterprise' };
    for (const field of ['name', 'organization_name', 'domain', 'industry']) {
      expect(
        firstIssue(registerRequestSchema.safeParse({ ...signUp, [field]: `x${NUL}` }))?.path,
      ).toBe(field);
      expect(firstIssue(updateProfileRequestSchema.safeParse({ [field]: '\udc00' }))?.path).toBe(
        field,
      );
    }
    const device = {
      device_id: 'device-12345678',
      hardware_info: {},
      supported_job_types: [],
      agent_version: '0.1.0',
    };
    expect(firstIssue(registerNodeRequestSchema.safeParse({ ...device, name: `n${NUL}` }))).toEqual(
      { path: 'name', message: 'name must not contain a NUL character (\\u0000)' },
    );
    expect(
      firstIssue(registerNodeRequestSchema.safeParse({ ...device, agent_version: '1\ud800' }))
        ?.path,
    ).toBe('agent_version');
    const lease = { lease_id: '00000000-0000-4000-8000-000000000000' };
    expect(
      firstIssue(progressRequestSchema.safeParse({ ...lease, progress: 0, message: `m${NUL}` })),
    ).toEqual({ path: 'message', message: 'message must not contain a NUL character (\\u0000)' });
    expect(
      firstIssue(failJobRequestSchema.safeParse({ ...lease, error: '\ud800', retryable: true }))
        ?.path,
    ).toBe('error');
    expect(
      firstIssue(
        failJobRequestSchema.safeParse({ ...lease, error: 'e'.repeat(2001), retryable: true }),
      ),
    ).toEqual({ path: 'error', message: 'error must be at most 2000 characters' });
  });

  it('bound every hardware text to 200 characters', () => {
    for (const field of ['cpu', 'memory', 'os', 'arch']) {
      expect(hardwareInfoSchema.safeParse({ [field]: 'x'.repeat(200) }).success).toBe(true);
      expect(firstIssue(hardwareInfoSchema.safeParse({ [field]: 'x'.repeat(201) }))).toEqual({
        path: field,
        message: `${field} must be at most 200 characters`,
      });
      expect(firstIssue(hardwareInfoSchema.safeParse({ [field]: `x${NUL}` }))?.path).toBe(field);
    }
  });
});

describe('safeJsonRecord', () => {
  const schema = safeJsonRecord('params', { maxBytes: 100 });

  it('walks keys and string values at any depth, naming the path', () => {
    expect(firstIssue(schema.safeParse({ prompt: `a${NUL}` }))).toEqual({
      path: 'prompt',
      message: 'params.prompt must not contain a NUL character (\\u0000)',
    });
    expect(
      firstIssue(schema.safeParse({ messages: [{ content: 'ok' }, { content: '\ud800' }] })),
    ).toEqual({
      path: 'messages.1.content',
      message: 'params.messages.1.content must not contain a lone surrogate (invalid Unicode)',
    });
    expect(firstIssue(schema.safeParse({ options: { [`k${NUL}`]: 1 } }))).toEqual({
      path: 'options',
      message: 'Keys of params.options must not contain a NUL character (\\u0000)',
    });
    expect(firstIssue(schema.safeParse({ ['\udc00']: 1 }))).toEqual({
      path: '',
      message: 'Keys of params must not contain a lone surrogate (invalid Unicode)',
    });
  });

  it('accepts ordinary JSON: numbers, booleans, null, nested objects and emoji', () => {
    const value = { a: 1, b: [true, null, { c: 'Zoë 🚀' }], d: {} };
    expect(schema.parse(value)).toEqual(value);
  });

  it('refuses nesting deeper than JSON_MAX_DEPTH without overflowing the stack', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    const result = safeJsonRecord('params').safeParse({ a: deep });
    expect(result.success).toBe(false);
    expect(firstIssue(result)?.message).toBe(
      `params must not nest deeper than ${JSON_MAX_DEPTH} levels`,
    );
    let fits: unknown = 'leaf';
    for (let level = 0; level < JSON_MAX_DEPTH - 1; level += 1) fits = [fits];
    expect(safeJsonRecord('params').safeParse({ a: fits }).success).toBe(true);
  });

  it('bounds the UTF-8 size of its JSON', () => {
    // {"t":"..."} is 8 bytes around the text.
    expect(schema.safeParse({ t: 'x'.repeat(92) }).success).toBe(true);
    expect(firstIssue(schema.safeParse({ t: 'x'.repeat(93) }))).toEqual({
      path: '',
      message: 'params must be at most 100 bytes as JSON',
    });
    expect(schema.safeParse({ t: '€'.repeat(31) }).success).toBe(false);
  });

  it('refuses what is not an object', () => {
    for (const value of [null, [], 'text', 3]) {
      expect(firstIssue(schema.safeParse(value))).toEqual({
        path: '',
        message: 'params must be a JSON object',
      });
    }
  });
});

describe('params of the AI job types', () => {
  it('fit a long prompt, up to 64 KB as JSON', () => {
    expect(FREE_PARAMS_MAX_BYTES).toBe(64 * 1024);
    const prompt = 'p'.repeat(FREE_PARAMS_MAX_BYTES - '{"prompt":""}'.length);
    expect(pendingKernelParamsSchema.safeParse({ prompt }).success).toBe(true);
    expect(pendingKernelParamsSchema.safeParse({ prompt: `${prompt}p` }).success).toBe(false);
  });

  it('name params.<path> at submit', () => {
    expect(
      firstIssue(
        submitJobRequestSchema.safeParse({
          job_type: 'llm_inference',
          params: { prompt: `Hello${NUL}` },
        }),
      ),
    ).toEqual({
      path: 'params.prompt',
      message: 'params.prompt must not contain a NUL character (\\u0000)',
    });
  });
});

describe('transactionListQuerySchema month', () => {
  it('accepts months of the years 2000 to 2100', () => {
    for (const month of ['2000-01', '2026-11', '2100-12']) {
      expect(transactionListQuerySchema.parse({ month }).month).toBe(month);
    }
  });

  it('refuses other years with a sentence naming the range', () => {
    for (const month of ['0000-01', '1999-12', '2101-01', '9999-12']) {
      expect(firstIssue(transactionListQuerySchema.safeParse({ month }))).toEqual({
        path: 'month',
        message: 'month must be between 2000-01 and 2100-12',
      });
    }
    expect(firstIssue(transactionListQuerySchema.safeParse({ month: '2026-13' }))?.message).toBe(
      'month must look like 2026-11',
    );
  });
});
