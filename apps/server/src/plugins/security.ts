import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers. The CSP fits the Vite-built SPA: same-origin module scripts and stylesheets,
 * no inline script at all. Inline styles stay allowed because the UI libraries (Radix positioning,
 * sonner toasts) set style attributes at run time; that cannot run script.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { publicUrl: string },
): Promise<void> {
  const isHttps = options.publicUrl.startsWith('https://');
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        // Only over HTTPS: on a plain-HTTP install (a LAN address) it would break every asset.
        ...(isHttps ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only means something once the site is served over HTTPS.
    strictTransportSecurity: isHttps ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    // Reset links carry their token in the URL: never send it on in a Referer header.
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
  });
}
