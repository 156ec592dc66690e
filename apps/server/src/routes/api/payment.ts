import {
  addCreditsResponseSchema,
  amountRequestSchema,
  apiPaths,
  balanceResponseSchema,
  connectStatusResponseSchema,
  ERROR_CODES,
  onboardingLinkResponseSchema,
  payoutResponseSchema,
  transactionListQuerySchema,
  transactionListResponseSchema,
} from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../lib/http-errors.ts';
import { idempotencyKeyOf } from '../../lib/idempotency-key.ts';
import { currentUser, requireRole } from '../../plugins/auth.ts';
import type { Services } from '../../services/index.ts';
import { monthKey } from '../../services/payment.service.ts';
import { bearerSecurity, errorResponses } from './errors.ts';

const tags = ['payment'];
const statementQuerySchema = z.object({
  month: transactionListQuerySchema.shape.month.unwrap(),
});

/** Spec section 7's payment calls (and the statement): balances from the ledger, money moves. */
export function paymentRoutes(
  fastify: FastifyInstance,
  { services }: { services: Services },
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const signedIn = [app.authenticate];
  const providersOnly = [app.authenticate, requireRole('node_provider')];
  const enterprisesOnly = [app.authenticate, requireRole('enterprise')];

  app.get(
    apiPaths.payment.balance,
    {
      onRequest: signedIn,
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          'Balances from the ledger (USD, 2 decimals): available (balance = credits_balance), held, pending, lifetime, this month, last 30 days',
        response: { 200: balanceResponseSchema, ...errorResponses(401) },
      },
    },
    (request) => {
      const user = currentUser(request);
      return services.payments.balance(user.id, user.role);
    },
  );

  app.get(
    apiPaths.payment.transactions,
    {
      onRequest: signedIn,
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          'The caller’s money movements, newest first, paged; direction in/out filters by sign, month by UTC month',
        querystring: transactionListQuerySchema,
        response: { 200: transactionListResponseSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => services.payments.transactions(currentUser(request).id, request.query),
  );

  app.post(
    apiPaths.payment.addCredits,
    {
      onRequest: enterprisesOnly,
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          'Buy credits by card: granted at once (sandbox) or after paying at checkout_url (Stripe). Honours Idempotency-Key.',
        body: amountRequestSchema,
        response: { 200: addCreditsResponseSchema, ...errorResponses(400, 401, 403, 409, 502) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return services.payments.addCredits(user, request.body.amount, idempotencyKeyOf(request));
    },
  );

  app.post(
    apiPaths.payment.payout,
    {
      onRequest: providersOnly,
      schema: {
        tags,
        security: bearerSecurity,
        summary:
          'Pay available earnings to the connected bank account; never beyond the balance; once per Idempotency-Key',
        body: amountRequestSchema,
        response: { 200: payoutResponseSchema, ...errorResponses(400, 401, 403, 409, 502) },
      },
    },
    (request) =>
      services.payments.requestPayout(
        currentUser(request).id,
        request.body.amount,
        idempotencyKeyOf(request),
      ),
  );

  app.get(
    apiPaths.payment.connectOnboard,
    {
      onRequest: providersOnly,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'A link to connect (onboard) a bank account for payouts',
        response: { 200: onboardingLinkResponseSchema, ...errorResponses(401, 403, 502) },
      },
    },
    (request) => {
      const user = currentUser(request);
      return services.payments.onboardingLink(user.id, user.email);
    },
  );

  app.post(
    apiPaths.payment.connectRefresh,
    {
      onRequest: providersOnly,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'A fresh link to finish connecting the bank account',
        response: { 200: onboardingLinkResponseSchema, ...errorResponses(401, 403, 502) },
      },
    },
    (request) => {
      const user = currentUser(request);
      return services.payments.onboardingLink(user.id, user.email);
    },
  );

  app.get(
    apiPaths.payment.connectStatus,
    {
      onRequest: providersOnly,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Whether a bank account is connected and can receive payouts, and what is missing',
        response: { 200: connectStatusResponseSchema, ...errorResponses(401, 403, 502) },
      },
    },
    (request) => services.payments.connectStatus(currentUser(request).id),
  );

  app.get(
    apiPaths.payment.statement,
    {
      onRequest: signedIn,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'A printable monthly statement of the ledger (text/html)',
        // Answers text/html: no JSON response schema (errors are the usual JSON body).
        querystring: statementQuerySchema,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      if (request.query.month > monthKey(services.clock())) {
        throw badRequest('month must not be in the future', ERROR_CODES.validation, 'month');
      }
      const account = await services.account.getUser(user.id);
      const html = await services.payments.statement(
        {
          id: user.id,
          email: user.email,
          role: user.role,
          organizationName: account.organization_name ?? null,
        },
        request.query.month,
      );
      return reply
        .type('text/html; charset=utf-8')
        .header(
          'content-disposition',
          `inline; filename="fabric-statement-${request.query.month}.html"`,
        )
        .send(html);
    },
  );
}
