import { loadTensorFlow } from '@fabric/compute';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { loadConfig, type AppConfig } from './config/env.ts';
import { loadOrCreateJwtSecret } from './config/secrets.ts';
import type { DatabaseConnection } from './db/connection.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { loggableError } from './lib/loggable-error.ts';
import { createLogMailer, createSmtpMailer, type Mailer } from './mail/mailer.ts';
import { registerAuthentication } from './plugins/auth.ts';
import { registerDatabase } from './plugins/database.ts';
import { registerDeviceAuthentication } from './plugins/device-auth.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerSecurityHeaders } from './plugins/security.ts';
import { validatorCompiler } from './plugins/validation.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { createRepositories } from './repositories/index.ts';
import { registerRoutes } from './routes/index.ts';
import { createServices } from './services/index.ts';
import type { PaymentService } from './services/payment.service.ts';
import {
  SWEEP_INTERVAL_MILLISECONDS,
  type SchedulerService,
} from './services/scheduler.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The scheduler, for tests that must see waiting lease requests or force a sweep. */
    scheduler: SchedulerService;
    /** Payments, for tests that run the monthly settlement at a chosen time. */
    payments: PaymentService;
  }
}

export interface BuildAppOptions {
  /** Overrides of the environment's configuration (see config/env.ts). */
  config?: Partial<AppConfig>;
  /** Read instead of process.env (tests keep the machine's environment out). */
  environment?: NodeJS.ProcessEnv;
  /** An open, migrated database to use instead of the configured one; the app will not close it. */
  database?: DatabaseConnection;
  /** Replaces SMTP / log delivery of emails. */
  mailer?: Mailer;
  /** Replaces the system clock for every expiry and rate-limit decision. */
  clock?: Clock;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** The fetch the Stripe provider uses (tests put a Stripe emulator behind it). */
  stripeFetch?: typeof fetch;
}

const HOUSEKEEPING_INTERVAL_MILLISECONDS = 10 * 60 * 1000;
const SETTLEMENT_INTERVAL_MILLISECONDS = 60 * 60 * 1000;
const MAIL_DISPATCH_INTERVAL_MILLISECONDS = 5000;
const PAYOUT_RETRY_INTERVAL_MILLISECONDS = 5 * 60 * 1000;

/** Values that must never reach a log line, wherever they appear in a logged object. */
const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'body',
  'req.body',
  '*.password',
  '*.current_password',
  '*.new_password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.jwt_secret',
];

/**
 * Query parameters that carry a credential: reset links (token), the sandbox's signed onboarding
 * links (signature), and the usual names of keys, codes and secrets, should any link carry them.
 */
const SECRET_QUERY_PARAMETER =
  /([?&](?:token|access_token|refresh_token|id_token|signature|sig|code|enrollment_code|key|api_key|secret|client_secret|password)=)[^&#]*/gi;

function loggerOptions(
  config: AppConfig,
  stream: BuildAppOptions['logStream'],
): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
    serializers: {
      // Reset links (/auth/reset-password?token=...) and signed links are page loads of this
      // server: keep their tokens and signatures out of the access log.
      req: (request: { method: string; url: string; host: string; ip: string }) => ({
        method: request.method,
        url: request.url.replace(SECRET_QUERY_PARAMETER, '$1[redacted]'),
        host: request.host,
        remoteAddress: request.ip,
      }),
    },
    ...(stream ? { stream } : {}),
    ...(config.logFormat === 'pretty' && !stream ? { transport: { target: 'pino-pretty' } } : {}),
  };
}

/**
 * Builds the whole server, ready to listen or to be called with `app.inject`: external plugins
 * (security headers, OpenAPI), then app plugins (database, rate limits, authentication), then
 * the routes and the web app.
 */
export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const config = loadConfig(options.config, options.environment);
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API speaks JSON only: anything else is refused with 415 instead of reaching validation.
  app.removeContentTypeParser('text/plain');
  registerErrorHandler(app);

  const shutdownSteps: (() => Promise<void> | void)[] = [];
  app.addHook('onClose', async () => {
    for (const step of shutdownSteps.reverse()) await step();
  });

  try {
    await registerSecurityHeaders(app, config);
    await registerOpenApi(app);

    const database = await registerDatabase(app, { config, connection: options.database });
    if (database.isOwned) shutdownSteps.push(() => database.connection.close());
    const repositories = createRepositories(database.connection.db);

    const mailer =
      options.mailer ??
      (config.smtpUrl
        ? createSmtpMailer(config.smtpUrl, config.mailFrom)
        : createLogMailer(app.log, { isProduction: config.isProduction }));
    shutdownSteps.push(() => mailer.close?.());

    if (!config.jwtSecret && database.connection.driver === 'postgres') {
      app.log.warn(
        'JWT_SECRET is not set: this process signs tokens with the secret in its DATA_DIR. ' +
          'Set the same JWT_SECRET on every process sharing this database.',
      );
    }
    const services = createServices({
      config,
      jwtSecret: config.jwtSecret ?? (await loadOrCreateJwtSecret(config.dataDir)),
      repositories,
      connection: database.connection,
      mailer,
      clock,
      logger: app.log,
      ...(options.stripeFetch ? { stripeFetch: options.stripeFetch } : {}),
    });
    shutdownSteps.push(() => services.passwordReset.settlePendingDeliveries());

    // A database that cannot be reached now must not keep the rest of the server from starting
    // (its health check says so); the built-ins are registered at the next start.
    await services.marketplace
      .ensureBuiltIns()
      .catch((error: unknown) =>
        app.log.error(loggableError(error), 'The built-in models could not be registered'),
      );
    // The server checks trained networks on their weights (neural_network_training).
    await loadTensorFlow();
    await services.wakeups.start();
    await services.changes.start();
    // Before the server stops: end every waiting lease request (it answers { lease: null }) and
    // every event stream so that no long-lived request holds up a shutdown, and stop listening.
    app.addHook('preClose', async () => {
      await services.wakeups.stop();
      await services.changes.stop();
    });
    shutdownSteps.push(() => services.wakeups.stop());
    shutdownSteps.push(() => services.changes.stop());
    app.decorate('scheduler', services.scheduler);
    app.decorate('payments', services.payments);

    await registerRateLimit(app, { rateLimits: repositories.rateLimits, clock });
    registerAuthentication(app, services.auth);
    registerDeviceAuthentication(app, services.devices);

    registerRoutes(app, { services, config });
    await registerWebApp(app, config);

    let housekeeping: Promise<void> = Promise.resolve();
    const timer = setInterval(() => {
      housekeeping = services.housekeeping
        .removeExpiredRecords()
        .catch((error: unknown) => app.log.error(loggableError(error), 'Housekeeping failed'));
    }, HOUSEKEEPING_INTERVAL_MILLISECONDS);
    timer.unref();
    shutdownSteps.push(async () => {
      clearInterval(timer);
      await housekeeping;
    });

    // Money and mail in the background: the monthly settlement (idempotent, so every process may
    // run it; hourly, so a month's earnings settle within an hour of the month's end) and the
    // notification emails.
    let settling: Promise<unknown> = Promise.resolve();
    const settle = () => {
      settling = services.payments
        .settle()
        .catch((error: unknown) => app.log.error(loggableError(error), 'Settlement failed'));
    };
    settle();
    const settlementTimer = setInterval(settle, SETTLEMENT_INTERVAL_MILLISECONDS);
    let retrying: Promise<unknown> = Promise.resolve();
    const payoutRetryTimer = setInterval(() => {
      retrying = services.payments
        .retryPendingPayouts()
        .catch((error: unknown) => app.log.error(loggableError(error), 'Payout retry failed'));
    }, PAYOUT_RETRY_INTERVAL_MILLISECONDS);
    payoutRetryTimer.unref();
    settlementTimer.unref();
    let mailing: Promise<unknown> = Promise.resolve();
    const mailTimer = setInterval(() => {
      mailing = services.notifications.dispatchEmails();
    }, MAIL_DISPATCH_INTERVAL_MILLISECONDS);
    mailTimer.unref();
    shutdownSteps.push(async () => {
      clearInterval(settlementTimer);
      clearInterval(payoutRetryTimer);
      clearInterval(mailTimer);
      await settling;
      await retrying;
      await mailing;
    });

    // Expired leases and silent nodes; lease requests sweep too, so this only matters when idle.
    let sweeping: Promise<void> = Promise.resolve();
    const sweeper = setInterval(() => {
      sweeping = services.scheduler
        .sweep()
        .catch((error: unknown) => app.log.error(loggableError(error), 'Lease sweep failed'));
    }, SWEEP_INTERVAL_MILLISECONDS);
    sweeper.unref();
    shutdownSteps.push(async () => {
      clearInterval(sweeper);
      await sweeping;
    });

    await app.ready();
    return await app;
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
}
