import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_PREFIX, ERROR_CODES, PRODUCT_NAME } from '@fabric/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${PRODUCT_NAME}</title></head>
<body>
<h1>${PRODUCT_NAME}: the web app is not built</h1>
<p>The API is running under <code>${API_PREFIX}/</code>. To serve the web app, run
<code>npm run build</code> at the root of the repository, then restart the server.</p>
</body>
</html>
`;

function isApiPath(pathname: string): boolean {
  return pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`);
}

function pathnameOf(request: FastifyRequest): string {
  const queryStart = request.url.indexOf('?');
  return queryStart === -1 ? request.url : request.url.slice(0, queryStart);
}

function acceptsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').toLowerCase().includes('text/html');
}

/**
 * Serves the built SPA from `webDistDir` and owns the not-found handler: unknown /api calls get a
 * JSON 404, page navigations (GET accepting HTML) get index.html so the client router decides.
 */
export async function registerWebApp(
  app: FastifyInstance,
  options: { webDistDir: string },
): Promise<void> {
  const indexFile = path.join(options.webDistDir, 'index.html');

  if (existsSync(options.webDistDir)) {
    await app.register(fastifyStatic, {
      root: options.webDistDir,
      index: ['index.html'],
      // Cache headers are set below: hashed assets forever, everything else revalidated.
      cacheControl: false,
      allowedPath: (pathname) => !isApiPath(pathname),
      setHeaders: (response, filePath) => {
        const relative = path.relative(options.webDistDir, filePath).split(path.sep);
        response.setHeader(
          'cache-control',
          relative[0] === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = pathnameOf(request);
    const isPageRequest =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(pathname) &&
      acceptsHtml(request);

    if (!isPageRequest) {
      const route = `${request.method} ${pathname}`.slice(0, 200);
      return reply.code(404).send({
        message: isApiPath(pathname) ? `No API call matches ${route}` : `Nothing found at ${route}`,
        code: ERROR_CODES.notFound,
      });
    }

    let indexHtml: Buffer | undefined;
    try {
      indexHtml = await readFile(indexFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return reply
      .code(200)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(indexHtml ?? NOT_BUILT_PAGE);
  });
}
