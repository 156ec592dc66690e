import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

// The files of the model marketplace, one per sha256, in a folder the server owns. A file enters
// only through importFile, which hashes it while copying and keeps it only when the hash is the
// one the operator gave: what devices download by checksum is exactly what was registered.

export class ModelImportError extends Error {
  override readonly name = 'ModelImportError';
}

export interface StoredFile {
  sha256: string;
  sizeBytes: number;
}

export function createModelStore(options: { directory: string; fetch?: typeof fetch }) {
  const { directory } = options;
  const doFetch = options.fetch ?? globalThis.fetch;

  function pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`Not a sha256: ${sha256}`);
    return path.join(directory, sha256);
  }

  async function open(source: string): Promise<Readable> {
    if (/^https?:\/\//i.test(source)) {
      const response = await doFetch(source, { redirect: 'follow' });
      if (!response.ok || !response.body) {
        throw new ModelImportError(`Downloading ${source} answered ${response.status}`);
      }
      return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    }
    return createReadStream(source);
  }

  return {
    directory,
    pathOf,

    /** The stored file's size, or undefined when the store does not have it. */
    async sizeOf(sha256: string): Promise<number | undefined> {
      try {
        const info = await stat(pathOf(sha256));
        return info.isFile() ? info.size : undefined;
      } catch {
        return undefined;
      }
    },

    /**
     * Copies `source` (a local path or an http(s) URL) into the store, hashing it on the way, and
     * keeps it only when its sha256 is `expectedSha256`; otherwise nothing is kept and the error
     * says what the file's hash was.
     */
    async importFile(source: string, expectedSha256: string): Promise<StoredFile> {
      await mkdir(directory, { recursive: true });
      const incoming = path.join(directory, `.incoming-${randomUUID()}`);
      const hash = createHash('sha256');
      let sizeBytes = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          sizeBytes += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(await open(source), measure, createWriteStream(incoming));
        const sha256 = hash.digest('hex');
        if (sha256 !== expectedSha256) {
          throw new ModelImportError(
            `The file's sha256 is ${sha256}, not the ${expectedSha256} it was registered with`,
          );
        }
        await rename(incoming, pathOf(sha256));
        return { sha256, sizeBytes };
      } catch (error) {
        await rm(incoming, { force: true });
        if (error instanceof ModelImportError) throw error;
        throw new ModelImportError(
          `Could not read ${source}: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
    },
  };
}

export type ModelStore = ReturnType<typeof createModelStore>;
