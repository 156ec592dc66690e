import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createModelCache, ModelCacheError, type NeededFile } from './model-cache.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A server holding `files` by sha256, answering Range requests; it records what it was asked. */
function fakeServer(files: Buffer[], options: { corrupt?: boolean } = {}) {
  const bySha = new Map(files.map((bytes) => [sha256(bytes), bytes]));
  const requests: { url: string; range: string | null; authorization: string | null }[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers);
    requests.push({
      url,
      range: headers.get('range'),
      authorization: headers.get('authorization'),
    });
    const bytes = bySha.get(url.split('/').pop() ?? '');
    if (!bytes)
      return Promise.resolve(new Response('{"message":"Model not found"}', { status: 404 }));
    let body = options.corrupt ? Buffer.from(bytes).fill(7, 0, 1) : bytes;
    const range = /^bytes=(\d+)-$/.exec(headers.get('range') ?? '');
    const status = range ? 206 : 200;
    if (range) body = body.subarray(Number(range[1]));
    return Promise.resolve(new Response(body, { status }));
  };
  return { fetch: fetchFn, requests };
}

const needed = (bytes: Buffer): NeededFile => ({
  sha256: sha256(bytes),
  size_bytes: bytes.length,
  url: `/api/agent/models/${sha256(bytes)}`,
});

async function cacheWith(server: ReturnType<typeof fakeServer>, maxBytes = 1_000_000) {
  const directory = await mkdtemp(path.join(tmpdir(), 'fabric-cache-'));
  return createModelCache({
    directory,
    maxBytes,
    serverUrl: 'http://127.0.0.1:8080',
    token: () => 'fdt_device',
    fetch: server.fetch,
  });
}

describe('model cache', () => {
  const model = Buffer.from('a tiny model file '.repeat(100));

  it('downloads a file once, with the device token, and serves it from the cache after', async () => {
    const server = fakeServer([model]);
    const cache = await cacheWith(server);
    const first = await cache.ensure(needed(model));
    expect(await readFile(first)).toEqual(model);
    expect(await cache.ensure(needed(model))).toBe(first);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      url: `http://127.0.0.1:8080/api/agent/models/${sha256(model)}`,
      authorization: 'Bearer fdt_device',
    });
  });

  it('refuses and deletes a file whose sha256 does not match', async () => {
    const cache = await cacheWith(fakeServer([model], { corrupt: true }));
    await expect(cache.ensure(needed(model))).rejects.toThrow(ModelCacheError);
    expect(await readdir(cache.directory)).toEqual([]);
  });

  it('resumes an interrupted download from where it stopped', async () => {
    const server = fakeServer([model]);
    const cache = await cacheWith(server);
    // An earlier download stopped after 700 bytes.
    await writeFile(path.join(cache.directory, `${sha256(model)}.part`), model.subarray(0, 700));
    const file = await cache.ensure(needed(model));
    expect(await readFile(file)).toEqual(model);
    expect(server.requests[0]?.range).toBe('bytes=700-');
  });

  it('makes room by deleting the least recently used files', async () => {
    const files = [0, 1, 2].map((index) => Buffer.alloc(400, index));
    const cache = await cacheWith(fakeServer(files), 1000);
    await cache.ensure(needed(files[0] ?? Buffer.alloc(0)));
    await cache.ensure(needed(files[1] ?? Buffer.alloc(0)));
    await cache.ensure(needed(files[2] ?? Buffer.alloc(0)));
    const kept = await readdir(cache.directory);
    expect(kept.sort()).toEqual(
      [sha256(files[1] ?? Buffer.alloc(0)), sha256(files[2] ?? Buffer.alloc(0))].sort(),
    );
  });

  it('says so when a file is larger than the whole cache, or unknown to the server', async () => {
    const cache = await cacheWith(fakeServer([model]), 100);
    await expect(cache.ensure(needed(model))).rejects.toThrow(/cannot hold a file/);
    const other = Buffer.from('unknown');
    const roomy = await cacheWith(fakeServer([model]));
    await expect(roomy.ensure(needed(other))).rejects.toThrow(/answered 404/);
  });
});
