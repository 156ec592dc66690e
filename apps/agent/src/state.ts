import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

// What the agent keeps on the device: a stable device id, and per server the node it enrolled as
// and the device token (never the password). Written atomically, readable only by its owner.

const enrollmentSchema = z.object({
  node_id: z.string(),
  device_token: z.string(),
  email: z.string().optional(),
});
const stateSchema = z.object({
  device_id: z.string().min(8),
  enrollments: z.record(z.string(), enrollmentSchema).default({}),
});
export type AgentState = z.infer<typeof stateSchema>;
export type Enrollment = z.infer<typeof enrollmentSchema>;

function stateFile(dataDir: string): string {
  return path.join(dataDir, 'agent.json');
}

export async function loadState(dataDir: string): Promise<AgentState> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    const raw: unknown = JSON.parse(await readFile(stateFile(dataDir), 'utf8'));
    return stateSchema.parse(raw);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(
        `The agent state in ${stateFile(dataDir)} is unreadable; move it away to enroll again.`,
        {
          cause: error,
        },
      );
    }
    const fresh: AgentState = { device_id: `dev-${randomUUID()}`, enrollments: {} };
    await saveState(dataDir, fresh);
    return fresh;
  }
}

export async function saveState(dataDir: string, state: AgentState): Promise<void> {
  const file = stateFile(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}
