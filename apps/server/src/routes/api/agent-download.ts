import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { agentPaths } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config/env.ts';
import { notFound } from '../../lib/http-errors.ts';

export const AGENT_DOWNLOAD_FILE_NAME = 'fabric-agent.mjs';

/** GET /api/agent/download: the bundled agent a provider runs with `node fabric-agent.mjs`. */
export function agentDownloadRoutes(app: FastifyInstance, { config }: { config: AppConfig }): void {
  app.get(
    agentPaths.download,
    {
      schema: {
        tags: ['agent'],
        summary: 'Download the node agent as one JavaScript file for Node.js 20+',
      },
    },
    async (_request, reply) => {
      const file = await stat(config.agentBundlePath).catch(() => null);
      if (!file?.isFile()) {
        throw notFound(
          'The agent download is not built on this server yet: run `npm run build` and restart it.',
        );
      }
      return reply
        .type('text/javascript; charset=utf-8')
        .header('content-length', file.size)
        .header('content-disposition', `attachment; filename="${AGENT_DOWNLOAD_FILE_NAME}"`)
        .header('cache-control', 'no-cache')
        .send(createReadStream(config.agentBundlePath));
    },
  );
}
