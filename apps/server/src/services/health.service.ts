import { ERROR_CODES, type HealthResponse } from '@fabric/contract';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../lib/http-errors.ts';
import { loggableError } from '../lib/loggable-error.ts';
import type { Repositories } from '../repositories/index.ts';

export function createHealthService(options: {
  repositories: Repositories;
  logger: FastifyBaseLogger;
}) {
  return {
    async check(): Promise<HealthResponse> {
      try {
        await options.repositories.health.ping();
      } catch (error) {
        options.logger.error(loggableError(error), 'Health check: the database does not answer');
        throw new HttpError(503, 'The database is not reachable', ERROR_CODES.unavailable);
      }
      return { status: 'ok' };
    },
  };
}
