import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  agentPaths,
  apiPaths,
  marketplaceModelSchema,
  marketplaceSearchResponseSchema,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelStore, ModelImportError } from '../src/models/model-store.ts';
import { builtInModels } from '../src/models/built-in-models.ts';
import { bearer, registerUser } from './support/auth.ts';
import { enrollNode } from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';

// The model marketplace: search and one entry for signed-in users, files by checksum for
// enrolled devices (resumable), and a store that keeps only what matches its registered sha256.

const DIGITS = builtInModels()[0];
if (!DIGITS) throw new Error('no built-in dataset');
const DIGITS_BYTES = readFileSync(DIGITS.file);

function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

describeEachDatabase('marketplace', (database) => {
  let app: FastifyInstance;
  let enterprise: string;
  let provider: string;
  let deviceToken: string;

  beforeAll(async () => {
    app = await database.buildApp();
    enterprise = (await registerUser(app, { role: 'enterprise' })).auth.access_token;
    provider = (await registerUser(app, { role: 'node_provider' })).auth.access_token;
    deviceToken = (await enrollNode(app, provider)).deviceToken;
  });

  const search = (token: string, query = '') =>
    app.inject({ url: `${apiPaths.marketplace.search}${query}`, headers: bearer(token) });

  it('lists the built-in digits dataset for either role, with every field', async () => {
    for (const token of [enterprise, provider]) {
      const response = await search(token);
      expect(response.statusCode, response.body).toBe(200);
      const found = marketplaceSearchResponseSchema.parse(response.json());
      expect(found).toMatchObject({ page: 1, page_size: 20 });
      const digits = found.models.find((model) => model.id === 'digits');
      expect(digits).toMatchObject({
        category: 'dataset',
        job_types: ['neural_network_training'],
        format: 'csv.gz',
        size_bytes: DIGITS_BYTES.length,
        sha256: sha256Of(DIGITS_BYTES),
        license: 'CC BY 4.0',
        is_test_model: false,
      });
    }
  });

  it('filters by category and words (case-insensitive, wildcards taken literally), and pages', async () => {
    const datasets = marketplaceSearchResponseSchema.parse(
      (await search(enterprise, '?category=dataset&query=HANDWRITTEN')).json(),
    );
    expect(datasets.models.map((model) => model.id)).toContain('digits');
    const llms = marketplaceSearchResponseSchema.parse(
      (await search(enterprise, '?category=llm&query=digits')).json(),
    );
    expect(llms).toMatchObject({ models: [], total: 0 });
    const wildcard = marketplaceSearchResponseSchema.parse(
      (await search(enterprise, '?query=%25')).json(),
    );
    expect(wildcard.total).toBe(0);
    const all = marketplaceSearchResponseSchema.parse(
      (await search(enterprise, '?page_size=100')).json(),
    );
    const paged = marketplaceSearchResponseSchema.parse(
      (await search(enterprise, '?page=2&page_size=1')).json(),
    );
    expect(paged).toMatchObject({ page: 2, page_size: 1, total: all.total });
    expect(paged.models).toEqual(all.models.slice(1, 2));
  });

  it('refuses a bad category or page with 400 naming the field, and strangers with 401', async () => {
    const bad = await search(enterprise, '?category=weights');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/category must be one of/);
    expect((await search(enterprise, '?page=0')).statusCode).toBe(400);
    expect((await app.inject({ url: apiPaths.marketplace.search })).statusCode).toBe(401);
  });

  it('shows one entry, and 404 with a message for an unknown one', async () => {
    const one = await app.inject({
      url: apiPaths.marketplace.model('digits'),
      headers: bearer(provider),
    });
    expect(marketplaceModelSchema.parse(one.json()).id).toBe('digits');
    const unknown = await app.inject({
      url: apiPaths.marketplace.model('no-such-model'),
      headers: bearer(provider),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'Model not found' });
  });

  describe('files for enrolled devices', () => {
    const file = (
      token: string,
      headers: Record<string, string> = {},
      sha256 = DIGITS.entry.sha256,
    ) =>
      app.inject({
        url: agentPaths.modelFile(sha256),
        headers: { authorization: `Bearer ${token}`, ...headers },
      });

    it('sends the whole file, whose sha256 is its name', async () => {
      const whole = await file(deviceToken);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(sha256Of(whole.rawPayload)).toBe(DIGITS.entry.sha256);
    });

    it('resumes from a byte range', async () => {
      const tail = await file(deviceToken, { range: 'bytes=1000-' });
      expect(tail.statusCode).toBe(206);
      expect(tail.headers['content-range']).toBe(
        `bytes 1000-${DIGITS_BYTES.length - 1}/${DIGITS_BYTES.length}`,
      );
      expect(tail.rawPayload.equals(DIGITS_BYTES.subarray(1000))).toBe(true);
      const past = await file(deviceToken, { range: `bytes=${DIGITS_BYTES.length}-` });
      expect(past.statusCode).toBe(416);
    });

    it('is for devices only, and only for listed files', async () => {
      expect((await file(enterprise)).statusCode).toBe(401);
      expect((await file(deviceToken, {}, 'a'.repeat(64))).statusCode).toBe(404);
      expect((await file(deviceToken, {}, 'not-a-checksum')).statusCode).toBe(400);
    });
  });
});

describe('model store', () => {
  let directory: string;
  let source: string;
  const bytes = Buffer.from('GGUF test bytes, not a model');
  let server: Server;
  let url: string;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'fabric-models-'));
    source = path.join(await mkdtemp(path.join(tmpdir(), 'fabric-source-')), 'model.gguf');
    writeFileSync(source, bytes);
    server = createServer((request, response) => {
      if (request.url === '/model.gguf') response.end(bytes);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => {
    server.close();
  });

  it('keeps a file whose sha256 is the registered one, from a path or a URL', async () => {
    const store = createModelStore({ directory });
    const expected = sha256Of(bytes);
    expect(await store.importFile(source, expected)).toEqual({
      sha256: expected,
      sizeBytes: bytes.length,
    });
    expect(await store.importFile(`${url}/model.gguf`, expected)).toMatchObject({
      sha256: expected,
    });
    expect(readFileSync(store.pathOf(expected)).equals(bytes)).toBe(true);
  });

  it('keeps nothing when the sha256 differs or the source cannot be read', async () => {
    const store = createModelStore({ directory: await mkdtemp(path.join(tmpdir(), 'fabric-m-')) });
    const wrong = 'b'.repeat(64);
    await expect(store.importFile(source, wrong)).rejects.toThrow(ModelImportError);
    await expect(store.importFile(source, wrong)).rejects.toThrow(
      `The file's sha256 is ${sha256Of(bytes)}, not the ${wrong} it was registered with`,
    );
    await expect(store.importFile(`${url}/missing.gguf`, wrong)).rejects.toThrow(/answered 404/);
    await expect(store.importFile('/no/such/file', wrong)).rejects.toThrow(/Could not read/);
    expect(await readdir(store.directory)).toEqual([]);
  });
});
