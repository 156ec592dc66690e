import { randomUUID } from 'node:crypto';
import {
  agentPaths,
  API_PREFIX,
  apiPaths,
  COMPLETE_BODY_LIMIT_BYTES,
  ERROR_CODES,
  ROLES,
  type Lease,
  type Role,
} from '@fabric/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, TEST_PASSWORD } from '../test/support/auth.ts';
import { createManualClock } from '../test/support/clock.ts';
import {
  enrollNode,
  leaseJob,
  submitJob,
  TEST_CREDITS_USD,
  type EnrolledNode,
} from '../test/support/compute-network.ts';
import { describeWithPglite } from '../test/support/databases.ts';
import { codeOf, createClient, figuresLine, type Answer, type Client } from './harness.ts';
import {
  isSharedResource,
  ruledRole,
  routesOf,
  templateOf,
  urlOf,
  type OpenApiDocument,
  type ResourceKind,
  type Route,
} from './openapi-routes.ts';
import { exampleOf, hostileBody, hostileQuery, type BodyCase } from './schema-values.ts';
import { forgeTokens, type ForgedTokens } from './tokens.ts';
import { builtInModels } from '../src/models/built-in-models.ts';

/** A marketplace entry every app lists from its first start. */
const DIGITS_DATASET = (() => {
  const digits = builtInModels().find((model) => model.entry.id === 'digits');
  if (!digits) throw new Error('The digits dataset is not built in');
  return digits.entry;
})();

// test:security: every route the server publishes in its OpenAPI document, called with every kind
// of credential (the authorization matrix), then fed hostile bodies and query strings (fuzzing).
// Every answer is below 500, every 4xx carries a message, and a 4xx changes no row.

/** Fuzz runs per route and kind of input: enough to meet every kind of hostile value. */
const BODY_RUNS = 40;
const QUERY_RUNS = 30;

/** The request body limit of the app (app.ts); complete has its own, COMPLETE_BODY_LIMIT_BYTES. */
const BODY_LIMIT_BYTES = 1024 * 1024;

interface Account {
  role: Role;
  id: string;
  token: string;
  refreshToken: string;
}

interface World {
  /** Callers of the matrix: A owns the objects, B is another user of the same role. */
  a: Record<Role, Account>;
  b: Record<Role, Account>;
  /** Callers of the fuzzing, so its accepted requests never touch the matrix's objects. */
  fuzz: Record<Role, Account>;
  deviceA: EnrolledNode;
  deviceB: EnrolledNode;
  fuzzDevice: EnrolledNode;
  /** A job of enterprise A leased by device A. */
  lease: Lease;
  forged: ForgedTokens;
  signedOutToken: string;
  closedAccountToken: string;
  unenrolledDeviceToken: string;
}

interface Variant {
  label: string;
  headers: Record<string, string>;
}

function authorization(value: string): Record<string, string> {
  return { authorization: value };
}

const JSON_HEADERS = { 'content-type': 'application/json' };

describeWithPglite('test:security', (database) => {
  const clock = createManualClock(new Date('2026-11-20T12:00:00.000Z'));
  let app: FastifyInstance;
  let client: Client;
  let world: World;

  async function createAccount(role: Role): Promise<Account> {
    const user = await registerUser(app, { role, name: `Security ${role}` });
    if (role === 'enterprise') {
      const bought = await app.inject({
        method: 'POST',
        url: apiPaths.payment.addCredits,
        headers: bearer(user.auth.access_token),
        payload: { amount: TEST_CREDITS_USD },
      });
      expect(bought.statusCode, bought.body).toBe(200);
    }
    return {
      role,
      id: user.auth.user_id,
      token: user.auth.access_token,
      refreshToken: user.auth.refresh_token,
    };
  }

  async function accounts(): Promise<Record<Role, Account>> {
    return {
      node_provider: await createAccount('node_provider'),
      enterprise: await createAccount('enterprise'),
    };
  }

  async function insertNotification(owner: Account): Promise<string> {
    const { db } = await database.connection();
    const result = await db.execute(
      sql`INSERT INTO notifications (user_id, kind, title, body, created_at)
          VALUES (${owner.id}, 'credits_low', 'Security suite', 'A notification of its own',
                  ${clock.now().toISOString()})
          RETURNING id`,
    );
    const [row] = (result as { rows: { id: string }[] }).rows;
    if (!row) throw new Error('No notification was inserted');
    return row.id;
  }

  /** A fresh object of `kind` owned by `owner` (or by A of the role that can own one). */
  async function objectOf(kind: ResourceKind | undefined, owner: Account): Promise<string> {
    switch (kind) {
      case 'node':
        return (
          await enrollNode(
            app,
            (owner.role === 'node_provider' ? owner : world.a.node_provider).token,
          )
        ).node.id;
      case 'job':
        return (
          await submitJob(app, (owner.role === 'enterprise' ? owner : world.a.enterprise).token)
        ).id;
      case 'notification':
        return insertNotification(owner);
      case 'leased-job':
        return world.lease.job_id;
      case 'model':
        return DIGITS_DATASET.id;
      case 'model-file':
        return DIGITS_DATASET.sha256;
      default:
        return randomUUID();
    }
  }

  /** Required query parameters with example values, so a call gets past its query check. */
  function requiredQuery(route: Route): string {
    const parts = route.query
      .filter((parameter) => parameter.required)
      .map(
        (parameter) =>
          `${parameter.name}=${encodeURIComponent(String(exampleOf(parameter.schema, parameter.name)))}`,
      );
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  }

  function call(
    route: Route,
    variant: Variant,
    { id = randomUUID(), body }: { id?: string; body?: string } = {},
  ) {
    const text = body ?? (route.body ? '{}' : undefined);
    return client.exchange(
      {
        method: route.method,
        path: `${urlOf(route, id)}${requiredQuery(route)}`,
        headers: { ...variant.headers, ...(text === undefined ? {} : JSON_HEADERS) },
        ...(text === undefined ? {} : { body: text }),
        label: variant.label,
      },
      'cell',
    );
  }

  function expectUnauthenticated(answer: Answer, variant: Variant, route: Route) {
    expect(answer.status, `${route.name} [${variant.label}]: ${answer.text}`).toBe(401);
    if (route.security === 'user' && variant.label === 'expired token') {
      expect(codeOf(answer), `${route.name} [expired token]`).toBe(ERROR_CODES.sessionExpired);
    }
  }

  function expectPastAuthorization(answer: Answer, label: string, route: Route) {
    expect(
      [401, 403],
      `${route.name} [${label}] answered ${answer.status}: ${answer.text}`,
    ).not.toContain(answer.status);
  }

  // Built while collecting, so that each route the document lists becomes a test of its own.
  describe('every route of the OpenAPI document', async () => {
    app = await database.buildApp({
      clock: clock.now,
      config: { eventStreamsPerUser: 10_000, eventStreamsPerIp: 10_000 },
    });
    const document = (
      await app.inject({ url: `${API_PREFIX}/openapi.json` })
    ).json<OpenApiDocument>();
    const routes = routesOf(document);

    beforeAll(async () => {
      client = createClient(await app.listen({ host: '127.0.0.1', port: 0 }), database);
      const a = await accounts();
      const deviceA = await enrollNode(app, a.node_provider.token);
      // The only queued job, so device A leases this one.
      await submitJob(app, a.enterprise.token);
      const lease = await leaseJob(app, deviceA.deviceToken);
      const b = await accounts();
      const fuzz = await accounts();

      const signedOut = await createAccount('node_provider');
      const logout = await app.inject({
        method: 'POST',
        url: apiPaths.auth.logout,
        payload: { refresh_token: signedOut.refreshToken },
      });
      expect(logout.statusCode, logout.body).toBe(200);

      const closed = await createAccount('enterprise');
      const closing = await app.inject({
        method: 'DELETE',
        url: apiPaths.auth.account,
        headers: bearer(closed.token),
        payload: { current_password: TEST_PASSWORD, confirm: 'DELETE' },
      });
      expect(closing.statusCode, closing.body).toBe(200);

      const unenrolled = await enrollNode(app, a.node_provider.token);
      const unenrolling = await app.inject({
        method: 'DELETE',
        url: apiPaths.nodes.detail(unenrolled.node.id),
        headers: bearer(a.node_provider.token),
      });
      expect(unenrolling.statusCode, unenrolling.body).toBe(200);

      world = {
        a,
        b,
        fuzz,
        deviceA,
        deviceB: await enrollNode(app, b.node_provider.token),
        // It runs no job type a job can be leased for, so it never takes (or waits for) work.
        fuzzDevice: await enrollNode(app, fuzz.node_provider.token, {
          supported_job_types: ['llm_inference'],
        }),
        lease,
        forged: await forgeTokens(a.node_provider.token, clock.now()),
        signedOutToken: signedOut.token,
        closedAccountToken: closed.token,
        unenrolledDeviceToken: unenrolled.deviceToken,
      };
    });

    it('lists the routes of every kind of caller, and each role check is known', () => {
      expect(routes.length).toBeGreaterThanOrEqual(40);
      for (const security of ['user', 'device', 'public'] as const) {
        expect(routes.filter((route) => route.security === security).length).toBeGreaterThan(0);
      }
      // A route that declares 403 checks a role: the role table must say which, and only those.
      const declared = routes
        .filter((route) => route.security === 'user' && route.declaresForbidden)
        .map((route) => route.name);
      const ruled = routes
        .filter(
          (route) =>
            route.security === 'user' && ruledRole(route.method, route.template) !== undefined,
        )
        .map((route) => route.name);
      expect(ruled).toEqual(declared);
    });

    /** Credentials that must never open a user route. */
    function invalidUserCredentials(): Variant[] {
      const { forged } = world;
      return [
        { label: 'no token', headers: {} },
        { label: 'malformed token', headers: authorization('Bearer abc') },
        { label: 'not a bearer header', headers: authorization('Basic dXNlcjpwYXNz') },
        { label: 'expired token', headers: bearer(forged.expired) },
        { label: 'token signed with another secret', headers: bearer(forged.otherSecret) },
        { label: 'alg none token', headers: bearer(forged.algNone) },
        { label: 'token with its role claim changed', headers: bearer(forged.tamperedRole) },
        { label: 'token of a signed-out session', headers: bearer(world.signedOutToken) },
        { label: 'token of a closed account', headers: bearer(world.closedAccountToken) },
        { label: 'device token', headers: bearer(world.deviceA.deviceToken) },
      ];
    }

    /** Credentials that must never open an agent call. */
    function invalidDeviceCredentials(): Variant[] {
      return [
        ...invalidUserCredentials().filter((variant) => variant.label !== 'device token'),
        { label: 'token of an unenrolled device', headers: bearer(world.unenrolledDeviceToken) },
        { label: 'made-up device token', headers: bearer(`fdt_${randomUUID()}`) },
        { label: 'provider access token', headers: bearer(world.a.node_provider.token) },
        { label: 'enterprise access token', headers: bearer(world.a.enterprise.token) },
      ];
    }

    describe('authorization matrix', () => {
      const userRoutes = routes.filter((route) => route.security === 'user');
      const deviceRoutes = routes.filter((route) => route.security === 'device');
      const publicRoutes = routes.filter((route) => route.security === 'public');

      it.each(userRoutes.map((route) => [route.name, route] as const))(
        '%s: invalid credentials 401, wrong role 403, another user’s object 404',
        async (_name, route) => {
          for (const variant of invalidUserCredentials()) {
            expectUnauthenticated(await call(route, variant), variant, route);
          }
          for (const role of ROLES) {
            const owner = world.a[role];
            const id = await objectOf(route.resource, owner);
            if (!route.roles.includes(role)) {
              const answer = await call(
                route,
                { label: role, headers: bearer(owner.token) },
                { id },
              );
              expect(answer.status, `${route.name} [${role}]: ${answer.text}`).toBe(403);
              continue;
            }
            if (route.resource && !isSharedResource(route.resource)) {
              // Before the owner's own call, which may delete the object (DELETE /api/nodes/{id}).
              const label = `another ${role} on ${role} A’s object`;
              const other = await call(
                route,
                { label, headers: bearer(world.b[role].token) },
                { id },
              );
              expect(other.status, `${route.name} [${label}]: ${other.text}`).toBe(404);
            }
            const own = await call(
              route,
              { label: `${role}, own`, headers: bearer(owner.token) },
              { id },
            );
            expectPastAuthorization(own, `${role}, own`, route);
          }
        },
      );

      it.each(deviceRoutes.map((route) => [route.name, route] as const))(
        '%s: only a valid device token, and only for its own lease',
        async (_name, route) => {
          const id = isSharedResource(route.resource)
            ? await objectOf(route.resource, world.a.node_provider)
            : world.lease.job_id;
          for (const variant of invalidDeviceCredentials()) {
            expectUnauthenticated(await call(route, variant, { id }), variant, route);
          }
          if (route.resource && !isSharedResource(route.resource)) {
            // A schema-valid body naming device A's lease, from device B: the ownership check answers.
            const body = route.body
              ? JSON.stringify({
                  ...(exampleOf(route.body) as Record<string, unknown>),
                  lease_id: world.lease.lease_id,
                })
              : undefined;
            const label = 'another provider’s device on this lease';
            const other = await call(
              route,
              { label, headers: bearer(world.deviceB.deviceToken) },
              { id: world.lease.job_id, ...(body === undefined ? {} : { body }) },
            );
            expect(other.status, `${route.name} [${label}]: ${other.text}`).toBe(404);
          }
          const own = await call(
            route,
            { label: 'own device', headers: bearer(world.deviceA.deviceToken) },
            { id },
          );
          expectPastAuthorization(own, 'own device', route);
        },
      );

      it.each(publicRoutes.map((route) => [route.name, route] as const))(
        '%s: public, any credential is ignored',
        async (_name, route) => {
          const anonymous = await call(route, { label: 'no token', headers: {} });
          expectPastAuthorization(anonymous, 'no token', route);
          const variants = [
            ...invalidUserCredentials().slice(1),
            { label: 'provider access token', headers: bearer(world.a.node_provider.token) },
            { label: 'enterprise access token', headers: bearer(world.a.enterprise.token) },
          ];
          for (const variant of variants) {
            const answer = await call(route, variant);
            expect(answer.status, `${route.name} [${variant.label}]: ${answer.text}`).toBe(
              anonymous.status,
            );
          }
        },
      );
    });

    describe('fuzzing', () => {
      /** The fuzzing's caller of a route: allowed in, so its input checks are what answer. */
      function callerOf(route: Route): Record<string, string> {
        if (route.security === 'device') return bearer(world.fuzzDevice.deviceToken);
        if (route.security === 'user')
          return bearer(world.fuzz[route.roles[0] ?? 'enterprise'].token);
        return {};
      }

      async function pathOf(route: Route): Promise<string> {
        // Own objects where the route reads one (the query is then checked past the 404).
        const role = route.roles[0] ?? 'enterprise';
        const id =
          route.security === 'user' || isSharedResource(route.resource)
            ? await objectOf(route.resource, world.fuzz[role])
            : randomUUID();
        return urlOf(route, id);
      }

      /** A body that asks to long-poll is answered after its wait: keep the fuzzing fast. */
      function asksToWait(route: Route, text: string): boolean {
        if (route.template !== agentPaths.lease) return false;
        try {
          const body = JSON.parse(text) as { wait_seconds?: unknown };
          return typeof body.wait_seconds === 'number' && body.wait_seconds > 0;
        } catch {
          return false;
        }
      }

      const bodyRoutes = routes.filter((route) => route.body);
      it.each(bodyRoutes.map((route) => [route.name, route] as const))(
        '%s: hostile JSON bodies',
        async (_name, route) => {
          const headers = { ...callerOf(route), ...JSON_HEADERS };
          const path = `${await pathOf(route)}${requiredQuery(route)}`;
          await fc.assert(
            fc.asyncProperty(hostileBody(route.body ?? {}), async (hostile: BodyCase) => {
              fc.pre(!asksToWait(route, hostile.text));
              await client.exchange(
                { method: route.method, path, headers, body: hostile.text, label: hostile.label },
                'case',
              );
            }),
            { numRuns: BODY_RUNS },
          );
        },
      );

      const sendingRoutes = routes.filter((route) => route.method !== 'GET');
      it.each(sendingRoutes.map((route) => [route.name, route] as const))(
        '%s: broken JSON, other content types, oversized bodies',
        async (_name, route) => {
          const caller = callerOf(route);
          const path = `${await pathOf(route)}${requiredQuery(route)}`;
          const base = JSON.stringify(route.body ? exampleOf(route.body) : {});
          const send = (
            label: string,
            contentType: string | undefined,
            body: string | Uint8Array,
          ) =>
            client.exchange(
              {
                method: route.method,
                path,
                headers: { ...caller, ...(contentType ? { 'content-type': contentType } : {}) },
                body,
                label,
              },
              'case',
            );
          const invalidJson = [
            '{',
            '{"a":1,}',
            "{'a':1}",
            '{"a":NaN}',
            '{"a":Infinity}',
            '{"a":01}',
            '{"a":"\\x41"}',
            '{"a":"\\ud800',
            '\u0000',
            'undefined',
            `${base} trailing`,
          ];
          for (const text of invalidJson) {
            const answer = await send(
              `invalid JSON ${text.slice(0, 20)}`,
              'application/json',
              text,
            );
            expect(answer.status, `${route.name} [invalid JSON ${text}]`).toBeGreaterThanOrEqual(
              400,
            );
          }
          await send('empty JSON body', 'application/json', '');
          await send('BOM before the JSON', 'application/json', `\ufeff${base}`);
          await send(
            'duplicate keys',
            'application/json',
            base === '{}' ? '{"a":1,"a":"x"}' : `${base.slice(0, -1)},${base.slice(1)}`,
          );
          await send(
            'invalid UTF-8 in a string',
            'application/json',
            Buffer.concat([
              Buffer.from('{"x":"'),
              Buffer.from([0xed, 0xa0, 0x80, 0xff]),
              Buffer.from('"}'),
            ]),
          );
          await send(
            '10 000 nested arrays',
            'application/json',
            `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
          );
          for (const contentType of [
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/xml',
            'application/json; charset=utf-16',
          ]) {
            await send(`content type ${contentType}`, contentType, base);
          }
          await send('no content type', undefined, base);

          const oversized = (bytes: number) => `{"pad":"${'x'.repeat(bytes)}"}`;
          const large = await send(
            'body over 1 MB',
            'application/json',
            oversized(BODY_LIMIT_BYTES),
          );
          if (route.template !== templateOf(agentPaths.complete)) {
            expect(large.status, `${route.name} [body over 1 MB]`).toBe(413);
          }
          const huge = await send(
            'body over the complete limit',
            'application/json',
            oversized(COMPLETE_BODY_LIMIT_BYTES),
          );
          expect(huge.status, `${route.name} [body over the complete limit]`).toBe(413);
        },
      );

      const pathRoutes = routes.filter((route) => route.pathParameters.length > 0);
      it.each(pathRoutes.map((route) => [route.name, route] as const))(
        '%s: hostile path parameters',
        async (_name, route) => {
          const headers = {
            ...callerOf(route),
            ...(route.body ? JSON_HEADERS : {}),
          };
          const body = route.body ? JSON.stringify(exampleOf(route.body)) : undefined;
          const own = (await pathOf(route)).split('/');
          const ownId = own.find((part) => /^[0-9a-f-]{36}$/.test(part)) ?? randomUUID();
          for (const raw of [
            'not-a-uuid',
            ownId.toUpperCase(),
            `${ownId}%20`,
            `${ownId}%00`,
            `${ownId.slice(0, -1)}%ED%A0%80`,
            '00000000-0000-0000-0000-000000000000',
            'ffffffff-ffff-ffff-ffff-ffffffffffff',
            '%2e%2e',
            '%00',
            '%ED%A0%80',
            '%',
            '__proto__',
            'constructor',
            '-1',
            '1e308',
            "'%20OR%20'1'='1",
            'x'.repeat(5000),
          ]) {
            let path = route.template;
            for (const name of route.pathParameters) path = path.replace(`{${name}}`, raw);
            await client.exchange(
              {
                method: route.method,
                path: `${path}${requiredQuery(route)}`,
                headers,
                ...(body === undefined ? {} : { body }),
                label: `path parameter ${raw.slice(0, 40)}`,
              },
              'case',
            );
          }
        },
      );

      const queryRoutes = routes.filter((route) => route.query.length > 0);
      it.each(queryRoutes.map((route) => [route.name, route] as const))(
        '%s: hostile query strings',
        async (_name, route) => {
          const headers = callerOf(route);
          const path = await pathOf(route);
          await fc.assert(
            fc.asyncProperty(hostileQuery(route.query), async (query) => {
              await client.exchange(
                { method: route.method, path: `${path}?${query}`, headers, label: 'hostile query' },
                'case',
              );
            }),
            { numRuns: QUERY_RUNS },
          );
          const tooLong = await client.exchange(
            {
              method: route.method,
              path: `${path}?${route.query[0]?.name ?? 'q'}=${'x'.repeat(20_000)}`,
              headers,
              label: 'a 20 KB query string',
            },
            'case',
          );
          expect(tooLong.status, `${route.name} [a 20 KB query string]`).toBeGreaterThanOrEqual(
            400,
          );
        },
      );
    });
  });

  afterAll(() => {
    // Straight to stdout: Vitest keeps a passing test's console output to itself.
    process.stdout.write(figuresLine());
  });
});
