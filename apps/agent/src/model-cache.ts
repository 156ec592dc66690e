import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

// The models and datasets a lease needs, downloaded from the Fabric server by checksum into a
// folder of at most `maxBytes`: a file is used only after its sha256 matched, an interrupted
// download resumes where it stopped (HTTP Range), and the least recently used files make room
// for new ones. The agent never contacts a model hub: the server is its only source.

export interface NeededFile {
  sha256: string;
  size_bytes: number;
  /** The server's path of the file (contract agentPaths.modelFile). */
  url: string;
}

export class ModelCacheError extends Error {
  override readonly name = 'ModelCacheError';
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch {
    return undefined;
  }
}

export function createModelCache(options: {
  directory: string;
  maxBytes: number;
  serverUrl: string;
  /** The device token the server asks for. */
  token: () => string | null;
  fetch?: typeof fetch;
}) {
  const doFetch = options.fetch ?? globalThis.fetch;
  const { directory, maxBytes } = options;

  const finalPath = (sha256: string) => path.join(directory, sha256);
  const partialPath = (sha256: string) => path.join(directory, `${sha256}.part`);

  /** Deletes the least recently used complete files until `needed` more bytes fit. */
  async function makeRoom(needed: number, keep: ReadonlySet<string>): Promise<void> {
    const names = await readdir(directory);
    const files = [];
    let total = 0;
    for (const name of names) {
      const info = await stat(path.join(directory, name)).catch(() => undefined);
      if (!info?.isFile()) continue;
      total += info.size;
      if (/^[0-9a-f]{64}$/.test(name) && !keep.has(name)) {
        files.push({ name, size: info.size, usedAt: info.mtimeMs });
      }
    }
    files.sort((a, b) => a.usedAt - b.usedAt);
    for (const file of files) {
      if (total + needed <= maxBytes) break;
      await rm(path.join(directory, file.name), { force: true });
      total -= file.size;
    }
    if (total + needed > maxBytes) {
      throw new ModelCacheError(
        `The model cache (${maxBytes} bytes) cannot hold a file of ${needed} bytes`,
      );
    }
  }

  async function download(file: NeededFile): Promise<void> {
    const partial = partialPath(file.sha256);
    const already = (await sizeOf(partial)) ?? 0;
    const headers: Record<string, string> = {};
    const token = options.token();
    if (token) headers.authorization = `Bearer ${token}`;
    if (already > 0 && already < file.size_bytes) headers.range = `bytes=${already}-`;
    const response = await doFetch(`${options.serverUrl}${file.url}`, { headers });
    if (!response.ok || !response.body) {
      throw new ModelCacheError(`Downloading ${file.url} answered ${response.status}`);
    }
    // 206: the rest of a partial file; 200: the whole file again.
    const append = response.status === 206 && already > 0;
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      createWriteStream(partial, { flags: append ? 'a' : 'w' }),
    );
  }

  return {
    directory,

    /**
     * The local path of `file`, downloading it first when the cache does not hold it; the file's
     * sha256 is checked before it is used, and a file that does not match is deleted.
     */
    async ensure(file: NeededFile, keep: ReadonlySet<string> = new Set()): Promise<string> {
      if (!/^[0-9a-f]{64}$/.test(file.sha256)) {
        throw new ModelCacheError(`Not a sha256: ${file.sha256}`);
      }
      await mkdir(directory, { recursive: true });
      const target = finalPath(file.sha256);
      if ((await sizeOf(target)) === file.size_bytes) {
        const now = new Date();
        await utimes(target, now, now);
        return target;
      }
      await makeRoom(file.size_bytes, new Set([...keep, file.sha256]));
      await download(file);
      const partial = partialPath(file.sha256);
      const actual = await sha256OfFile(partial);
      if (actual !== file.sha256) {
        await rm(partial, { force: true });
        throw new ModelCacheError(
          `The file downloaded for ${file.sha256} has sha256 ${actual}: refused`,
        );
      }
      await rename(partial, target);
      return target;
    },
  };
}

export type ModelCache = ReturnType<typeof createModelCache>;
