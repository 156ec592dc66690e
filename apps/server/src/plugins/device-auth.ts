import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { NodeRow } from '../db/schema.ts';
import {
  deviceTokenRequired,
  invalidDeviceToken,
  type DeviceService,
} from '../services/device.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Hook for agent calls (`onRequest: [app.authenticateDevice]`): checks
     * `Authorization: Bearer <device token>` and sets `request.device` to the enrolled node, or
     * answers 401 (code INVALID_DEVICE_TOKEN for a token that is not, or no longer, valid). Separate
     * from `authenticate`: a user's access token never opens an agent call, nor the reverse.
     */
    authenticateDevice: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    device: NodeRow | null;
  }
}

const BEARER_PATTERN = /^Bearer\s+(\S+)\s*$/i;

export function registerDeviceAuthentication(app: FastifyInstance, devices: DeviceService): void {
  app.decorateRequest('device', null);
  app.decorate('authenticateDevice', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') throw deviceTokenRequired();
    const token = BEARER_PATTERN.exec(header)?.[1];
    if (!token)
      throw invalidDeviceToken('The Authorization header must be "Bearer <device token>"');
    request.device = await devices.identify(token);
  });
}

/** The node of an agent call that uses `app.authenticateDevice`. */
export function currentDevice(request: FastifyRequest): NodeRow {
  if (!request.device) throw deviceTokenRequired();
  return request.device;
}
