import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadState, saveState } from './state.ts';

describe('agent state', () => {
  it('creates a device id once and keeps it, readable only by its owner', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'fabric-agent-state-'));
    const first = await loadState(dataDir);
    expect(first.device_id).toMatch(/^dev-[0-9a-f-]{36}$/);
    first.enrollments['http://localhost:8080'] = { node_id: 'n', device_token: 'fdt_x' };
    await saveState(dataDir, first);

    const again = await loadState(dataDir);
    expect(again).toEqual(first);
    expect(statSync(path.join(dataDir, 'agent.json')).mode & 0o777).toBe(0o600);
  });
});
