import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ApiError } from '@bimi/contracts/api-error';
import { PAYMENTS_BASE_PATH, SITE_API_PATHS, TOOLS_BASE_PATH } from '@bimi/contracts/api-paths';
import { z } from 'zod';
import type { Config } from './config';
import { firstProblemValidatorCompiler } from './lib/first-problem';
import { HttpError } from './lib/http-error';
import { Refusal } from './lib/refusal';
import { acceptJsonBodies } from './lib/json-body';
import { containsNul, NUL_REFUSED } from './lib/nul-characters';
import { anonymousWrites } from './lib/csrf';
import { serverOptions } from './lib/server-options';
import { databaseEndpointOf, UNAVAILABLE_MESSAGES, UNAVAILABLE_RETRY_AFTER_SECONDS, unavailableService } from './lib/unavailable';
import clock, { movableClock } from './plugins/app/platform/clock';
import contactMessages from './plugins/app/site/contact-messages';
import contacts from './plugins/app/identity/contacts';
import database from './plugins/app/platform/db';
import dnsResolver from './plugins/app/platform/dns';
import emailTokens from './plugins/app/identity/email-tokens';
import jobs from './plugins/app/platform/jobs';
import untrustedFiles from './plugins/app/tools/mark-certificate';
import mailer from './plugins/app/mail/mailer';
import monitorEngine from './plugins/app/monitors/monitor-engine';
import monitors from './plugins/app/monitors/monitors';
import monitorAlerts from './plugins/app/monitors/monitors-alerts';
import monitorConversations from './plugins/app/monitors/monitors-conversations';
import monitorSnapshots from './plugins/app/monitors/monitors-snapshots';
import sessions, { withSessions } from './plugins/app/identity/sessions';
import newsletterSubscribers from './plugins/app/site/newsletter-subscribers';
import fulfilment from './plugins/app/orders/fulfilment';
import orderNotifications from './plugins/app/mail/order-notifications';
import orders from './plugins/app/orders/orders';
import organizations from './plugins/app/identity/organizations';
import partnerApplications from './plugins/app/site/partner-applications';
import paymentCustomers from './plugins/app/payments/payment-customers';
import paymentJobs from './plugins/app/payments/payment-jobs';
import payments from './plugins/app/payments/payments';
import accountAnswers from './plugins/app/pages/account-answers';
import publicConfig from './plugins/app/pages/public-config';
import remoteRegistry from './plugins/app/pages/remote-registry';
import renewalReminders from './plugins/app/orders/renewal-reminders';
import safeFetch from './plugins/app/platform/safe-fetch';
import shellPage from './plugins/app/pages/shell-page';
import serverRender from './plugins/app/pages/server-render';
import supportTickets from './plugins/app/site/support-tickets';
import telemetry from './plugins/app/site/telemetry';
import toolAnswers from './plugins/app/tools/tool-answers';
import transactions from './plugins/app/orders/transactions';
import users from './plugins/app/identity/users';
import cookie from './plugins/external/cookie';
import securityHeaders from './plugins/external/helmet';
import rateLimit from './plugins/external/rate-limit';
import buildOutputs from './plugins/external/static';
import accountRoutes from './routes/api/account';
import analyticsRoutes from './routes/api/analytics';
import authRoutes from './routes/api/auth';
import cartRoutes from './routes/api/cart';
import clientErrorRoutes from './routes/api/client-errors';
import contactRoutes from './routes/api/contact';
import healthRoutes from './routes/api/health';
import newsletterRoutes from './routes/api/newsletter';
import paymentRoutes from './routes/api/payments';
import publicConfigRoutes from './routes/api/public-config';
import documentRoutes from './routes/docs';
import pageRoutes from './routes/pages';
import remotesRoutes from './routes/remotes';
import toolRoutes from './routes/api/tools';
import devClockRoutes from './routes/dev/clock';
import devOutboxRoutes from './routes/dev/outbox';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

export interface BuildOptions {
  /** Where log lines go instead of stdout; tests read them. */
  logStream?: NodeJS.WritableStream;
  /** The store's clock (epoch ms; src/plugins/app/platform/clock.ts); tests move it to check expiry. */
  now?: () => number;
}

function apiError(message: string): ApiError {
  return { message };
}

/** The problems a 400 names: enough to mend a request; a body of thousands of bad values is not described value by value (issue 31). */
const PROBLEMS_DESCRIBED = 10;

/** "email: Enter a valid email address; name: …": each field, then what is wrong with it. */
function describeProblems(first: string[], total: number): string {
  const more = total - first.length;
  return first.join('; ') + (more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'}` : '');
}

function describeValidationFailure(issues: { instancePath: string; message?: string }[], context: string | undefined): string {
  const first = issues.slice(0, PROBLEMS_DESCRIBED).map((issue) => {
    const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || context || 'request';
    return `${field}: ${issue.message ?? 'is invalid'}`;
  });
  return describeProblems(first, issues.length);
}

function describeZodError(error: z.core.$ZodError): string {
  return describeProblems(
    error.issues.slice(0, PROBLEMS_DESCRIBED).map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`),
    error.issues.length,
  );
}

/** The whole bff, ready for `listen` or `inject`: external plugins, then the store's services, then routes. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Proxy trust and the request, header, keep-alive and idle timeouts (src/lib/server-options.ts).
    ...serverOptions(config),
    logger: { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    // Long landing-page paths must reach the page route rather than fail as too long.
    routerOptions: { maxParamLength: 2048 },
    // Errors raised before routing (a malformed URL) answer in the same shape as every other error.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      reply.code(error.statusCode ?? 400).send(apiError(error.message));
    },
  }).withTypeProvider<ZodTypeProvider>();
  // Zod's, after a walk that stops at the first bad value (lib/first-problem.ts, issue 31).
  app.setValidatorCompiler(firstProblemValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  // JSON bodies nested past MAX_JSON_DEPTH or holding more than MAX_JSON_VALUES are refused before they are parsed.
  acceptJsonBodies(app);

  await app.register(securityHeaders);
  await app.register(cookie);
  await app.register(rateLimit);
  await app.register(buildOutputs, { prefix: '/mfe' });

  await app.register(database);
  // DEV_CLOCK (never in production): a clock the e2e flows move forward through POST /dev/clock.
  const devClock = !options.now && config.devClock ? movableClock() : undefined;
  await app.register(clock, { now: options.now ?? devClock?.now });
  // The one scheduler: the domain plugins below hand it their jobs' handlers.
  await app.register(jobs);
  await app.register(emailTokens);
  await app.register(users);
  await app.register(sessions);
  await app.register(mailer);
  await app.register(newsletterSubscribers);
  await app.register(contactMessages);
  await app.register(partnerApplications);
  await app.register(organizations);
  await app.register(contacts);
  await app.register(supportTickets);
  await app.register(paymentCustomers);
  await app.register(orders);
  await app.register(transactions);
  await app.register(fulfilment);
  await app.register(orderNotifications);
  await app.register(renewalReminders);
  await app.register(payments);
  await app.register(paymentJobs);
  await app.register(telemetry);
  await app.register(remoteRegistry);
  await app.register(publicConfig);
  await app.register(shellPage);
  await app.register(serverRender);
  await app.register(accountAnswers);
  await app.register(dnsResolver);
  await app.register(safeFetch);
  await app.register(untrustedFiles);
  await app.register(toolAnswers);
  await app.register(monitors);
  await app.register(monitorSnapshots);
  await app.register(monitorAlerts);
  await app.register(monitorConversations);
  await app.register(monitorEngine);

  // Where PostgreSQL listens: a socket error of another service is not a database outage.
  const databaseEndpoint = databaseEndpointOf(config.databaseUrl);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send(apiError(describeValidationFailure(error.validation, error.validationContext)));
    }
    if (error instanceof z.core.$ZodError) {
      return reply.code(400).send(apiError(describeZodError(error)));
    }
    // PostgreSQL or Redis away (restarting, down): 503 in our words, which a retry later may cure.
    const unavailable = unavailableService(error, databaseEndpoint);
    if (unavailable) {
      request.log.warn({ err: error }, `request failed: the ${unavailable === 'database' ? 'database' : 'session store'} is unavailable`);
      return reply.code(503).header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS)).send(apiError(UNAVAILABLE_MESSAGES[unavailable]));
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status < 500) {
      request.log.info({ err: error }, 'request refused');
      return reply.code(status).send(apiError(error.message));
    }
    // A 503 the code chose (a service busy or not configured) says why in its own words.
    if (status === 503 && (error instanceof HttpError || error instanceof Refusal)) {
      request.log.warn({ err: error }, 'request refused: unavailable');
      return reply.code(503).header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS)).send(apiError(error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(status).send(apiError('Internal server error'));
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(apiError('Not found')));
  // Before every route: a NUL anywhere in params, query or JSON body is refused (PostgreSQL cannot store it).
  app.addHook('preValidation', async (request, reply) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) return reply.code(400).send(apiError(NUL_REFUSED));
  });

  // Graceful shutdown: once the bff closes (SIGTERM), each answer still going out says
  // `Connection: close`, so its kept-alive socket ends with it rather than holding the close open
  // until its idle timeout (Fastify answers new requests 503 meanwhile).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  await app.register(healthRoutes, { prefix: SITE_API_PATHS.health });
  await app.register(publicConfigRoutes, { prefix: SITE_API_PATHS.publicConfig });
  // anonymousWrites: browsers post to these without a CSRF token; only another site's Origin is refused.
  await app.register(anonymousWrites(analyticsRoutes));
  await app.register(anonymousWrites(clientErrorRoutes), { prefix: SITE_API_PATHS.clientErrors });
  await app.register(newsletterRoutes);
  await app.register(anonymousWrites(contactRoutes), { prefix: SITE_API_PATHS.contact });
  await app.register(anonymousWrites(cartRoutes));
  // Only these read or start a session (plugins/app/identity/sessions.ts, withSessions).
  await app.register(
    withSessions(async (scope) => {
      await scope.register(authRoutes);
      await scope.register(accountRoutes);
      await scope.register(paymentRoutes, { prefix: PAYMENTS_BASE_PATH });
    }),
  );
  if (config.nodeEnv !== 'production') await app.register(devOutboxRoutes);
  if (devClock) await app.register(devClockRoutes(devClock.advance));
  await app.register(anonymousWrites(toolRoutes), { prefix: TOOLS_BASE_PATH });
  await app.register(remotesRoutes);
  await app.register(documentRoutes);
  await app.register(pageRoutes);

  return app;
}
