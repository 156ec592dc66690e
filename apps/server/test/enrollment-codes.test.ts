import { randomUUID } from 'node:crypto';
import {
  agentPaths,
  apiPaths,
  enrollmentCodeResponseSchema,
  ERROR_CODES,
  registerNodeResponseSchema,
} from '@fabric/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENROLLMENT_CODE_MESSAGES } from '../src/services/enrollment-code.service.ts';
import { bearer, registerUser, uniqueIp } from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import {
  enrollNode,
  heartbeat,
  registerEnterprise,
  registerProvider,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';

const MINUTE = 60 * 1000;

describeEachDatabase('one-time enrollment codes', (database) => {
  let app: FastifyInstance;
  const clock = createManualClock();

  beforeAll(async () => {
    app = await database.buildApp({
      clock: clock.now,
      config: { accessTokenTtlSeconds: 24 * 60 * 60 },
    });
  });

  const createCode = (token: string) =>
    app.inject({ method: 'POST', url: apiPaths.nodes.enrollmentCodes, headers: bearer(token) });

  const newCode = async (token: string) => {
    const response = await createCode(token);
    expect(response.statusCode, response.body).toBe(201);
    return enrollmentCodeResponseSchema.parse(response.json());
  };

  const enroll = (code: string, fields: Record<string, unknown> = {}) =>
    app.inject({
      method: 'POST',
      url: agentPaths.enroll,
      remoteAddress: uniqueIp(),
      payload: {
        enrollment_code: code,
        device_id: `device-${randomUUID()}`,
        name: 'Lab workstation',
        hardware_info: { cpu: 'Test CPU', cores: 8, memory: '16 GB', os: 'linux', arch: 'x64' },
        supported_job_types: ['fibonacci'],
        agent_version: '0.1.0',
        ...fields,
      },
    });

  const refusal = (reason: keyof typeof ENROLLMENT_CODE_MESSAGES) => ({
    message: ENROLLMENT_CODE_MESSAGES[reason],
    code: ERROR_CODES.invalidToken,
    field: 'enrollment_code',
  });

  describe('POST /api/nodes/enrollment-codes', () => {
    it('gives a provider a readable code that lasts 15 minutes', async () => {
      const created = await newCode(await registerProvider(app));
      expect(created.code).toMatch(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/);
      expect(created.expires_at).toBe(new Date(clock.now().getTime() + 15 * MINUTE).toISOString());
    });

    it('is for signed-in node providers only', async () => {
      expect((await createCode(await registerEnterprise(app, { credits: 0 }))).statusCode).toBe(
        403,
      );
      const anonymous = await app.inject({ method: 'POST', url: apiPaths.nodes.enrollmentCodes });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('POST /api/agent/enroll', () => {
    it('enrolls the device for the code’s owner, typed in any case and without dashes', async () => {
      const provider = await registerProvider(app);
      const { code } = await newCode(provider);
      const response = await enroll(code.replaceAll('-', '').toLowerCase());
      expect(response.statusCode, response.body).toBe(201);
      const enrolled = registerNodeResponseSchema.parse(response.json());
      expect(enrolled.node.name).toBe('Lab workstation');

      // The node is the provider's, and its device token works.
      const nodes = await app.inject({ url: apiPaths.nodes.list, headers: bearer(provider) });
      expect(nodes.json()).toMatchObject({ nodes: [{ id: enrolled.node.id }] });
      expect((await heartbeat(app, enrolled.device_token)).status).toBe('online');
    });

    it('works once', async () => {
      const { code } = await newCode(await registerProvider(app));
      expect((await enroll(code)).statusCode).toBe(201);
      const again = await enroll(code);
      expect(again.statusCode).toBe(401);
      expect(again.json()).toEqual(refusal('used'));
    });

    it('works once even when two devices present it at the same moment', async () => {
      const { code } = await newCode(await registerProvider(app));
      const statuses = (await Promise.all([enroll(code), enroll(code), enroll(code)])).map(
        (response) => response.statusCode,
      );
      expect(statuses.sort()).toEqual([201, 401, 401]);
    });

    it('refuses an expired code and one that was never issued', async () => {
      const { code } = await newCode(await registerProvider(app));
      clock.advanceBy(15 * MINUTE + 1000);
      const expired = await enroll(code);
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual(refusal('expired'));

      const unknown = await enroll('ABCD-EFGH-JKMN');
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toEqual(refusal('unknown'));
    });

    it('answers 400 naming enrollment_code for something that is not a code, and for none', async () => {
      for (const wrong of ['1234', 'ABCD-EFGH-JK0N']) {
        const response = await enroll(wrong);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({
          field: 'enrollment_code',
          message:
            'enrollment_code must be the 12-character code from Add Node, like ABCD-EFGH-JKMN',
        });
      }
      const missing = await app.inject({
        method: 'POST',
        url: agentPaths.enroll,
        remoteAddress: uniqueIp(),
        payload: { device_id: 'device-without-code' },
      });
      expect(missing.statusCode).toBe(400);
    });

    it('keeps the code usable when the device belongs to another provider', async () => {
      const owner = await registerProvider(app);
      const { node } = await enrollNode(app, owner);
      const { code } = await newCode(await registerProvider(app));

      const taken = await enroll(code, { device_id: node.device_id });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toMatchObject({ field: 'device_id' });
      expect((await enroll(code)).statusCode).toBe(201);
    });

    it('refuses the codes of a closed account', async () => {
      const { auth } = await registerUser(app);
      const { code } = await newCode(auth.access_token);
      const { db } = await database.connection();
      await db.execute(sql`UPDATE users SET deleted_at = now() WHERE id = ${auth.user_id}`);
      const response = await enroll(code);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(refusal('unknown'));
    });
  });
});
