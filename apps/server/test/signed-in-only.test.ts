import { apiPaths, ERROR_CODES } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { describeWithPglite } from './support/databases.ts';

// Every call that acts for a user answers 401 without a token, before looking at its input.
const signedInCalls: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string][] = [
  ['GET', apiPaths.auth.me],
  ['PUT', apiPaths.auth.profile],
  ['PUT', apiPaths.auth.password],
  ['DELETE', apiPaths.auth.account],
  ['GET', apiPaths.events],
  ['POST', apiPaths.nodes.enrollmentCodes],
  ['GET', apiPaths.payment.balance],
  ['GET', apiPaths.payment.transactions],
  ['POST', apiPaths.payment.addCredits],
  ['POST', apiPaths.payment.payout],
  ['GET', apiPaths.payment.connectOnboard],
  ['GET', apiPaths.payment.connectStatus],
  ['POST', apiPaths.payment.connectRefresh],
  ['GET', `${apiPaths.payment.statement}?month=2026-11`],
  ['GET', apiPaths.settings],
  ['PUT', apiPaths.settings],
  ['GET', apiPaths.notifications.list],
  ['GET', apiPaths.notifications.unreadCount],
  ['POST', apiPaths.notifications.read('9a8b7c6d-0000-4000-8000-000000000000')],
  ['POST', apiPaths.notifications.readAll],
];

describeWithPglite('calls for signed-in users', (database) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await database.buildApp();
  });

  it.each(signedInCalls)('%s %s: 401 without a token', async (method, url) => {
    const response = await app.inject({
      method,
      url,
      ...(method === 'GET' ? {} : { payload: { amount: 1 } }),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: ERROR_CODES.unauthenticated });
  });
});
