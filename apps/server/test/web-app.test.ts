import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { agentPaths, apiPaths, ERROR_CODES, healthResponseSchema } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeWithPglite } from './support/databases.ts';

const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';

describeWithPglite('serving the web app and the API side by side', (database) => {
  describe('with a built web app', () => {
    let app: FastifyInstance;

    beforeAll(async () => {
      const webDistDir = await database.temporaryDirectory();
      await mkdir(path.join(webDistDir, 'assets'));
      await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
      await writeFile(path.join(webDistDir, 'assets', 'index-abc123.js'), 'console.log("fabric")');
      await writeFile(
        path.join(webDistDir, 'favicon.svg'),
        '<svg xmlns="http://www.w3.org/2000/svg"/>',
      );
      app = await database.buildApp({ config: { webDistDir } });
    });

    const page = (url: string) =>
      app.inject({ url, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });

    it('serves index.html at / without caching it', async () => {
      const response = await page('/');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toBe(INDEX_HTML);
      expect(response.headers['cache-control']).toBe('no-cache');
    });

    it.each([
      '/auth/signin',
      '/jobs/123e4567-e89b-12d3-a456-426614174000',
      '/settings?stripe_connected=true',
      '/no/such/page',
    ])('answers the client route %s with index.html so the SPA router decides', async (url) => {
      const response = await page(url);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(INDEX_HTML);
      expect(response.headers['cache-control']).toBe('no-cache');
    });

    it('serves hashed assets with a long immutable cache, other files revalidated', async () => {
      const asset = await app.inject({ url: '/assets/index-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-type']).toMatch(/javascript/);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const favicon = await app.inject({ url: '/favicon.svg' });
      expect(favicon.statusCode).toBe(200);
      expect(favicon.headers['cache-control']).toBe('no-cache');
    });

    it('answers 404 JSON, not index.html, for a missing asset fetched by a script', async () => {
      const response = await app.inject({
        url: '/assets/missing-0000.js',
        headers: { accept: '*/*' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: ERROR_CODES.notFound });
    });

    it('keeps /api/* as the API: an unknown call is a 404 JSON even when HTML is accepted', async () => {
      for (const url of ['/api/no-such-call', '/api', '/api/auth/nope?x=1']) {
        const response = await page(url);
        expect(response.statusCode).toBe(404);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.json()).toEqual({
          message: `No API call matches GET ${url.split('?')[0] ?? url}`,
          code: ERROR_CODES.notFound,
        });
      }
    });

    it('answers 404 JSON for other methods on unknown paths and for a wrong method on a known call', async () => {
      expect((await app.inject({ method: 'POST', url: '/anything' })).statusCode).toBe(404);
      const wrongMethod = await app.inject({ method: 'DELETE', url: apiPaths.auth.login });
      expect(wrongMethod.statusCode).toBe(404);
      expect(wrongMethod.json()).toMatchObject({
        message: 'No API call matches DELETE /api/auth/login',
      });
    });

    it('sends a CSP that lets the same-origin SPA run and forbids inline script and framing', async () => {
      const csp = (await page('/')).headers['content-security-policy'];
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("script-src-attr 'none'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    });
  });

  describe('without a built web app', () => {
    let app: FastifyInstance;

    beforeAll(async () => {
      app = await database.buildApp({
        config: { webDistDir: path.join(await database.temporaryDirectory(), 'dist') },
      });
    });

    it('answers page loads with a short page saying to run npm run build', async () => {
      const response = await app.inject({ url: '/nodes', headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('the web app is not built');
      expect(response.body).toContain('npm run build');
    });

    it('still serves the API', async () => {
      const response = await app.inject({ url: apiPaths.health });
      expect(response.statusCode).toBe(200);
      expect(healthResponseSchema.parse(response.json())).toEqual({ status: 'ok' });
    });
  });

  describe('the API around the routes', () => {
    let app: FastifyInstance;

    beforeAll(async () => {
      app = await database.buildApp();
    });

    it('answers GET /api/health with { status: "ok" }', async () => {
      const response = await app.inject({ url: apiPaths.health });
      expect(response.json()).toEqual({ status: 'ok' });
    });

    it('serves an OpenAPI document generated from the contract', async () => {
      const response = await app.inject({ url: '/api/openapi.json' });
      expect(response.statusCode).toBe(200);
      const document = response.json<{
        openapi: string;
        paths: Record<string, Record<string, unknown>>;
      }>();
      expect(document.openapi).toBe('3.1.0');
      for (const url of Object.values(apiPaths.auth))
        expect(Object.keys(document.paths)).toContain(url);
      expect(document.paths[apiPaths.auth.register]).toHaveProperty('post.requestBody');
      for (const url of [
        apiPaths.nodes.list,
        '/api/nodes/{id}',
        '/api/nodes/{id}/earnings',
        apiPaths.jobs.list,
        apiPaths.jobs.submit,
        '/api/jobs/{id}/cancel',
        agentPaths.register,
        agentPaths.lease,
        '/api/agent/jobs/{id}/complete',
      ]) {
        expect(Object.keys(document.paths)).toContain(url);
      }
      expect(document.paths['/api/nodes/{id}']).toHaveProperty('delete');
      expect(Object.keys(document.paths).some((url) => url.includes('*'))).toBe(false);
    });
  });
});
