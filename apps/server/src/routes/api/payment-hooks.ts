import { apiPaths, PRODUCT_NAME } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import { loggableError } from '../../lib/loggable-error.ts';
import { WebhookSignatureError } from '../../payments/payment-provider.ts';
import type { Services } from '../../services/index.ts';
import { errorResponses } from './errors.ts';

const onboardingQuerySchema = z.object({
  account: z.string().regex(/^acct_sandbox_[0-9a-f]{32}$/, 'account is not a sandbox account'),
  expires: z.coerce.number().int('expires must be a whole number'),
  signature: z.string().regex(/^[0-9a-f]{64}$/, 'signature is not valid'),
});

const LINK_NOT_VALID =
  'This onboarding link has expired or is not valid. Go back to Settings and connect again.';

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');
}

/** The sandbox's stand-in for Stripe's hosted onboarding: one page, one button. */
function onboardingPage(formAction: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect a bank account — ${PRODUCT_NAME} sandbox</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; background: #f8fafc; color: #0f172a; display: grid; place-items: center; min-height: 100vh; margin: 0; padding: 1rem; box-sizing: border-box; }
  main { background: #fff; border: 1px solid #e2e8f0; border-radius: .75rem; padding: 2rem; max-width: 28rem; width: 100%; box-shadow: 0 1px 3px rgb(0 0 0 / .06); }
  h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
  .note { background: #fef9c3; border: 1px solid #fde047; border-radius: .5rem; padding: .75rem; font-size: .875rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; margin: 1.25rem 0; }
  dt { color: #64748b; } dd { margin: 0; font-variant-numeric: tabular-nums; }
  button { width: 100%; padding: .7rem; border: 0; border-radius: .5rem; background: #4338ca; color: #fff; font: inherit; font-weight: 600; cursor: pointer; }
  button:focus-visible { outline: 3px solid #a5b4fc; outline-offset: 2px; }
  a { display: block; text-align: center; margin-top: .75rem; color: #4338ca; }
</style></head>
<body><main>
<h1>Connect a bank account</h1>
<p class="note">Sandbox: no real bank is involved. Payouts to this account complete at once and move no real money. Configure STRIPE_SECRET_KEY to use Stripe.</p>
<dl><dt>Bank</dt><dd>Sandbox Bank</dd><dt>Account</dt><dd>•••• 6789</dd><dt>Currency</dt><dd>USD</dd></dl>
<form method="post" action="${escapeHtml(formAction)}"><button type="submit">Agree and connect</button></form>
<a href="/settings">Cancel and return to ${PRODUCT_NAME}</a>
</main></body></html>`;
}

function messagePage(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${PRODUCT_NAME} sandbox</title>
<style>body { font: 15px/1.5 system-ui, sans-serif; display: grid; place-items: center; min-height: 100vh; margin: 0; padding: 1rem; } main { max-width: 28rem; } a { color: #4338ca; }</style>
</head><body><main><p>${escapeHtml(message)}</p><p><a href="/settings">Back to Settings</a></p></main></body></html>`;
}

/**
 * Calls that come from outside the app (no bearer token): the sandbox's onboarding page, reached
 * through a signed, expiring link, and Stripe's webhook, verified by its signature.
 */
export function paymentHookRoutes(
  fastify: FastifyInstance,
  { services }: { services: Services },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const sandbox = services.sandbox;

  if (sandbox) {
    const isValidLink = (query: z.infer<typeof onboardingQuerySchema>) =>
      sandbox.verifyOnboardingLink(
        { accountId: query.account, expires: query.expires, signature: query.signature },
        services.clock(),
      );

    void app.register((scope, _options, done) => {
      // The page's form posts an empty urlencoded body; nothing in it is read.
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 1024 },
        (_request, _body, parsed) => {
          parsed(null, {});
        },
      );
      const typed = scope.withTypeProvider<ZodTypeProvider>();

      typed.get(
        apiPaths.payment.sandboxOnboarding,
        {
          schema: {
            tags: ['payment'],
            summary: 'Sandbox only: the bank onboarding page an onboarding link opens (text/html)',
            querystring: onboardingQuerySchema,
          },
        },
        async (request, reply) => {
          const page = isValidLink(request.query)
            ? onboardingPage(request.url)
            : messagePage(LINK_NOT_VALID);
          return reply
            .code(isValidLink(request.query) ? 200 : 400)
            .type('text/html; charset=utf-8')
            .send(page);
        },
      );

      typed.post(
        apiPaths.payment.sandboxOnboarding,
        {
          schema: {
            tags: ['payment'],
            summary: 'Sandbox only: completes onboarding and returns the browser to Settings',
            querystring: onboardingQuerySchema,
          },
        },
        async (request, reply) => {
          if (!isValidLink(request.query)) {
            return reply
              .code(400)
              .type('text/html; charset=utf-8')
              .send(messagePage(LINK_NOT_VALID));
          }
          await services.payments.completeSandboxOnboarding(request.query.account);
          return reply.redirect('/settings?stripe_connected=true', 303);
        },
      );
      done();
    });
  }

  // Stripe signs the exact bytes it sent: read the body as text, not parsed JSON.
  void app.register((scope, _options, done) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: 1024 * 1024 },
      (_request, body, parsed) => {
        parsed(null, body);
      },
    );
    scope.post(
      apiPaths.payment.stripeWebhook,
      {
        schema: {
          tags: ['payment'],
          summary: 'Stripe webhook (verified by the Stripe-Signature header)',
          response: { 200: z.object({ received: z.boolean() }), ...errorResponses(400, 404) },
        },
      },
      async (request) => {
        if (services.payments.provider.name !== 'stripe')
          throw notFound('Stripe is not configured');
        const signature = request.headers['stripe-signature'];
        let event;
        try {
          event = services.payments.provider.parseWebhook(
            typeof request.body === 'string' ? request.body : '',
            typeof signature === 'string' ? signature : undefined,
            services.clock(),
          );
        } catch (error) {
          request.log.warn(loggableError(error), 'Refused a Stripe webhook');
          throw badRequest(
            error instanceof WebhookSignatureError
              ? 'The webhook signature is not valid'
              : 'The webhook body is not a Stripe event',
          );
        }
        await services.payments.applyEvent(event);
        return { received: true };
      },
    );
    done();
  });
}
