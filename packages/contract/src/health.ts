import { z } from 'zod';

/** GET /api/health: the server is up and its database answers. */
export const healthResponseSchema = z.object({ status: z.literal('ok') });
export type HealthResponse = z.infer<typeof healthResponseSchema>;
