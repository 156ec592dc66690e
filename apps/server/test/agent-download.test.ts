import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { agentPaths } from '@fabric/contract';
import { describe, expect, it } from 'vitest';
import { describeWithPglite } from './support/databases.ts';

describeWithPglite('downloading the node agent', (database) => {
  describe('GET /api/agent/download', () => {
    it('serves the bundled agent as an attachment, without an account', async () => {
      const bundle = path.join(await database.temporaryDirectory(), 'fabric-agent.mjs');
      await writeFile(bundle, '#!/usr/bin/env node\nconsole.log("agent");\n');
      const app = await database.buildApp({ config: { agentBundlePath: bundle } });

      const response = await app.inject({ url: agentPaths.download });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        'attachment; filename="fabric-agent.mjs"',
      );
      expect(response.body).toBe('#!/usr/bin/env node\nconsole.log("agent");\n');
    });

    it('says how to build it when the bundle is missing', async () => {
      const missing = path.join(await database.temporaryDirectory(), 'none.mjs');
      const app = await database.buildApp({ config: { agentBundlePath: missing } });

      const response = await app.inject({ url: agentPaths.download });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        message:
          'The agent download is not built on this server yet: run `npm run build` and restart it.',
        code: 'NOT_FOUND',
      });
    });
  });
});
