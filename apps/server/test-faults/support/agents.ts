import { agentPaths, type Lease } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { ManualClock } from '../../test/support/clock.ts';
import { agentCall } from '../../test/support/compute-network.ts';

/** Agents report progress this often (on the manual clock), well inside the 20 s lease timeout. */
export const PROGRESS_EVERY_MS = 10_000;

export interface Working {
  deviceToken: string;
  leased: Lease;
}

/**
 * The nodes work on their leases for `wallMs` of the server's clock, each reporting progress
 * every PROGRESS_EVERY_MS as a running agent does, so no lease expires under them.
 */
export async function workTogether(
  app: FastifyInstance,
  clock: ManualClock,
  working: Working[],
  wallMs: number,
): Promise<void> {
  let done = 0;
  while (done < wallMs) {
    const step = Math.min(PROGRESS_EVERY_MS, wallMs - done);
    clock.advanceBy(step);
    done += step;
    await Promise.all(
      working.map(async ({ deviceToken, leased }) => {
        const response = await agentCall(app, deviceToken, agentPaths.progress(leased.job_id), {
          lease_id: leased.lease_id,
          progress: Math.min(0.99, done / wallMs),
        });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json()).toEqual({ abort: false });
      }),
    );
  }
}

export const toMicros = (dollars: number | null | undefined): number =>
  Math.round((dollars ?? 0) * 1e6);

export const sumOf = (values: number[]): number =>
  values.reduce((total, value) => total + value, 0);
