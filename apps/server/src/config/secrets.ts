import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

const secretsFileSchema = z.object({ jwt_secret: z.string().min(32) });

export const SECRETS_FILE_NAME = 'secrets.json';

async function readSecrets(file: string): Promise<string> {
  const parsed = secretsFileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
  if (!parsed.success) {
    throw new Error(`${file} is not a valid secrets file: delete it to generate a new secret`);
  }
  // Someone may have copied the file with looser permissions: only the owner may read it.
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  return parsed.data.jwt_secret;
}

/**
 * The JWT signing secret when JWT_SECRET is not set: generated once, kept in
 * DATA_DIR/secrets.json (mode 0600) and reused, so sessions survive a restart.
 */
export async function loadOrCreateJwtSecret(dataDir: string): Promise<string> {
  const file = path.join(dataDir, SECRETS_FILE_NAME);
  await mkdir(dataDir, { recursive: true });
  try {
    return await readSecrets(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(48).toString('base64url');
  // Written whole under a temporary name, then linked into place: link() fails if another
  // process got there first (its secret then wins), and nobody ever reads a half-written file.
  const temporaryFile = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporaryFile, `${JSON.stringify({ jwt_secret: secret }, null, 2)}\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  try {
    await link(temporaryFile, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return await readSecrets(file);
  } finally {
    await unlink(temporaryFile);
  }
}
