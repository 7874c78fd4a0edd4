import { Readable } from 'node:stream';
import { ApiError } from '@bimi/contracts/api-error';
import {
  AssistantConversation,
  AssistantRequest,
  MONITOR_PATHS,
  MonitorCreated,
  MonitorCreateRequest,
  MonitorDetail,
  MonitorList,
  MonitorListItem,
  MonitorStatusChange,
  readMonitorDomain,
  type AssistantStreamEvent,
  type ConversationEntry,
} from '@bimi/contracts/monitors';
import { domainExists } from '@bimi/email-auth/dns';
import { normalizeDomainInput } from '@bimi/email-auth/domain-input';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../../lib/http-error';
import { monitorListItem, type MonitorRow } from '../../../plugins/app/monitors/monitors';
import { reviewSuggestedRecords } from '../../../services/assistant/advice';
import { builtInAnswer } from '../../../services/assistant/built-in';
import { assistantContext } from '../../../services/assistant/context';
import { modelAnswer } from '../../../services/assistant/model';
import { currentUser } from './current-user';
import { readableGet } from './readable';
import { iso } from '../../../lib/iso';

const MonitorParams = z.object({ domain: z.string().min(1).max(253) });
const NOT_FOUND = 'Monitor not found';
const byUser = (request: FastifyRequest) => request.sessionUser?.id ?? request.ip;

/**
 * Domain monitors (issue 13): create (the first check runs before the answer, within
 * MONITOR_FIRST_RUN_TIMEOUT_MS), list, one in detail, re-check now, pause/resume, delete, and the
 * assistant. A monitor is named by its domain; another user's answers 404.
 */
const monitors: FastifyPluginAsyncZod = async (fastify) => {
  const settings = fastify.config.monitors;

  async function ownMonitor(request: FastifyRequest, domain: string): Promise<MonitorRow> {
    return monitorOf(currentUser(request).id, domain);
  }
  async function monitorOf(userId: string, domain: string): Promise<MonitorRow> {
    const monitor = await fastify.monitors.get(userId, domain.toLowerCase());
    if (!monitor) throw new HttpError(404, NOT_FOUND);
    return monitor;
  }
  async function detail(monitor: MonitorRow): Promise<MonitorDetail> {
    const row = (await fastify.monitors.byId(monitor.id)) ?? monitor;
    const [latest, history] = await Promise.all([fastify.monitorSnapshots.latest(monitor.id), fastify.monitorSnapshots.history(monitor.id)]);
    return { monitor: monitorListItem(row, fastify.now()), latest, history };
  }

  fastify.post(
    MONITOR_PATHS.create,
    {
      schema: { body: MonitorCreateRequest, response: { 201: MonitorCreated, 400: ApiError, 403: ApiError, 409: ApiError, 422: ApiError } },
      config: { rateLimit: { max: 20, timeWindow: '10 minutes', keyGenerator: byUser } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const read = readMonitorDomain(request.body.domain, normalizeDomainInput);
      if (!read.ok) throw new HttpError(400, read.message);
      const { domain } = read;
      if (await fastify.monitors.get(user.id, domain)) throw new HttpError(409, `You already monitor ${domain}.`);
      if (!(await domainExists(domain, fastify.dnsResolver))) throw new HttpError(422, `${domain} does not exist in DNS. Check the spelling, or add it once its DNS is set up.`);
      const created = await fastify.monitors.create(user.id, domain, fastify.now());
      if (created === 'duplicate') throw new HttpError(409, `You already monitor ${domain}.`);
      if (created === 'limit') throw new HttpError(403, `You have reached your limit of ${settings.limitPerUser} monitors. Delete one to add ${domain}.`);
      request.log.info({ monitorId: created.id }, 'monitor created');
      // The modal waits for the first analysis, for a while; past that the page shows it as checking.
      const first = fastify.monitorEngine.runNow(created.id).catch((error: unknown) => {
        request.log.error({ err: error, monitorId: created.id }, 'first monitor run failed');
        return null;
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([first, new Promise((resolve) => (timer = setTimeout(resolve, settings.firstRunTimeoutMs)))]);
      clearTimeout(timer);
      const row = (await fastify.monitors.byId(created.id)) ?? created;
      return reply.code(201).send({ domain, monitor: monitorListItem(row, fastify.now()) });
    },
  );

  readableGet(fastify, {
    url: MONITOR_PATHS.list,
    response: MonitorList,
    read: async (user) => {
      const rows = await fastify.monitors.list(user.id);
      return { monitors: rows.map((row) => monitorListItem(row, fastify.now())), limit: settings.limitPerUser };
    },
  });

  readableGet(
    fastify,
    { url: `${MONITOR_PATHS.list}/:domain`, params: MonitorParams, response: MonitorDetail, read: async (user, { params }) => detail(await monitorOf(user.id, params.domain)) },
    { 404: ApiError },
  );

  fastify.post(
    `${MONITOR_PATHS.list}/:domain/check`,
    {
      schema: { params: MonitorParams, response: { 200: MonitorDetail, 404: ApiError } },
      config: { rateLimit: { max: settings.rechecksPerHour, timeWindow: '1 hour', keyGenerator: byUser } },
    },
    async (request) => {
      const monitor = await ownMonitor(request, request.params.domain);
      await fastify.monitorEngine.runNow(monitor.id);
      return detail(monitor);
    },
  );

  fastify.put(
    `${MONITOR_PATHS.list}/:domain/status`,
    { schema: { params: MonitorParams, body: MonitorStatusChange, response: { 200: MonitorListItem, 404: ApiError } } },
    async (request) => {
      const monitor = await ownMonitor(request, request.params.domain);
      const updated = await fastify.monitors.setStatus(monitor.user_id, monitor.domain, request.body.status, fastify.now());
      if (!updated) throw new HttpError(404, NOT_FOUND);
      return monitorListItem(updated, fastify.now());
    },
  );

  fastify.delete(`${MONITOR_PATHS.list}/:domain`, { schema: { params: MonitorParams, response: { 204: z.null(), 404: ApiError } } }, async (request, reply) => {
    const monitor = await ownMonitor(request, request.params.domain);
    await fastify.monitors.remove(monitor.user_id, monitor.domain);
    return reply.code(204).send(null);
  });

  // The context strips secrets from the whole snapshot (linear, services/assistant/context.ts): still work, so limited.
  fastify.get(
    `${MONITOR_PATHS.list}/:domain/assistant`,
    { schema: { params: MonitorParams, response: { 200: AssistantConversation, 404: ApiError } }, config: { rateLimit: { max: 60, timeWindow: '10 minutes', keyGenerator: byUser } } },
    async (request) => {
      const monitor = await ownMonitor(request, request.params.domain);
      const [snapshot, entries] = await Promise.all([fastify.monitorSnapshots.latest(monitor.id), fastify.monitorConversations.list(monitor.id)]);
      return { context: assistantContext({ domain: monitor.domain, snapshot, history: entries }), entries };
    },
  );

  // The answer streams as JSON lines (AssistantStreamEvent); both entries are stored once it is whole.
  fastify.post(
    `${MONITOR_PATHS.list}/:domain/assistant`,
    {
      schema: { params: MonitorParams, body: AssistantRequest, response: { 404: ApiError } },
      config: { rateLimit: { max: fastify.config.assistant.questionsPerHour, timeWindow: '1 hour', keyGenerator: byUser } },
    },
    async (request, reply) => {
      const monitor = await ownMonitor(request, request.params.domain);
      const [snapshot, history] = await Promise.all([fastify.monitorSnapshots.latest(monitor.id), fastify.monitorConversations.list(monitor.id)]);
      const { question } = request.body;
      const asked: ConversationEntry = { role: 'user', text: question, timestamp: iso(fastify.now()) };
      const context = assistantContext({ domain: monitor.domain, snapshot, history, initialQuestion: question, autoSubmit: true });
      const model = fastify.config.assistant.model;
      const abort = new AbortController();
      request.raw.on('close', () => {
        if (request.raw.destroyed) abort.abort();
      });
      const line = (event: AssistantStreamEvent) => `${JSON.stringify(event)}\n`;
      async function* events(): AsyncGenerator<string> {
        let text = '';
        try {
          if (model) {
            // The model's records are held to the built-in assistant's rules before they are shown
            // (services/assistant/advice.ts): streamed line by line, a harmful record replaced.
            const reviewed = reviewSuggestedRecords(monitor.domain, snapshot);
            for await (const delta of modelAnswer(model, context, question, abort.signal)) {
              const safe = reviewed(delta);
              text += safe;
              if (safe) yield line({ type: 'delta', text: safe });
            }
            const rest = reviewed('', true);
            text += rest;
            if (rest) yield line({ type: 'delta', text: rest });
          } else {
            text = builtInAnswer(monitor.domain, snapshot, question);
            yield line({ type: 'delta', text });
          }
        } catch (error) {
          request.log.warn({ err: error }, 'assistant answer failed');
          yield line({ type: 'error', message: 'The assistant could not answer just now. Please try again in a minute.' });
          return;
        }
        const answer: ConversationEntry = { role: 'assistant', text: text || 'No answer came back. Please ask again.', timestamp: iso(fastify.now()) };
        await fastify.monitorConversations.add(monitor.id, asked);
        await fastify.monitorConversations.add(monitor.id, answer);
        yield line({ type: 'done', question: asked, answer, source: model ? 'model' : 'built-in' });
      }
      return reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .send(Readable.from(events()) as never);
    },
  );
};

export default monitors;
