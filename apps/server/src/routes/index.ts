import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/env.ts';
import type { Services } from '../services/index.ts';
import { agentDownloadRoutes } from './api/agent-download.ts';
import { agentRoutes } from './api/agent.ts';
import { authRoutes } from './api/auth.ts';
import { eventRoutes } from './api/events.ts';
import { healthRoutes } from './api/health.ts';
import { jobRoutes } from './api/jobs.ts';
import { marketplaceRoutes } from './api/marketplace.ts';
import { nodeRoutes } from './api/nodes.ts';
import { notificationRoutes } from './api/notifications.ts';
import { paymentHookRoutes } from './api/payment-hooks.ts';
import { paymentRoutes } from './api/payment.ts';
import { settingsRoutes } from './api/settings.ts';

export interface RouteOptions {
  services: Services;
  config: AppConfig;
}

/** Every API route; files under routes/ mirror the URL paths they serve. */
export function registerRoutes(app: FastifyInstance, options: RouteOptions): void {
  healthRoutes(app, options);
  authRoutes(app, options);
  nodeRoutes(app, options);
  jobRoutes(app, options);
  marketplaceRoutes(app, options);
  agentRoutes(app, options);
  agentDownloadRoutes(app, options);
  eventRoutes(app, options);
  paymentRoutes(app, options);
  paymentHookRoutes(app, options);
  settingsRoutes(app, options);
  notificationRoutes(app, options);
}
