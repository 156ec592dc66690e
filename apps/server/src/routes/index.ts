import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/env.ts';
import type { Services } from '../services/index.ts';
import { authRoutes } from './api/auth.ts';
import { healthRoutes } from './api/health.ts';

export interface RouteOptions {
  services: Services;
  config: AppConfig;
}

/** Every API route; files under routes/ mirror the URL paths they serve. */
export function registerRoutes(app: FastifyInstance, options: RouteOptions): void {
  healthRoutes(app, options);
  authRoutes(app, options);
}
