import {
  BimiAnswer,
  CnameAnswer,
  DkimAnswer,
  DmarcAnswer,
  DomainToolQuery,
  NameToolQuery,
  RecordsAnswer,
  SelectorToolQuery,
  SpfAnswer,
  SpfToolQuery,
  TxtAnswer,
  VmcAnswer,
  VmcToolQuery,
  VmcUpload,
  type ToolAnswer,
  type ToolFindings,
  type ToolName,
} from '@bimi/contracts/tools';
import { inspectDkim } from '@bimi/email-auth/dkim';
import { inspectCname, inspectRecords, inspectTxt } from '@bimi/email-auth/dns-records';
import { inspectDmarc } from '@bimi/email-auth/dmarc';
import { validateDomain } from '@bimi/email-auth/domain';
import { domainExists } from '@bimi/email-auth/dns';
import { verdictOf } from '@bimi/email-auth/verdict';
import { inspectSpf } from '@bimi/email-auth/spf';
import { evaluateSpf } from '@bimi/email-auth/spf-evaluate';
import { parseClientIp } from '@bimi/email-auth/spf-macro';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { concurrencyLimit } from '../../../lib/concurrency-limit';
import { HttpError } from '../../../lib/http-error';
import type { ToolIo } from '../../../services/tools/ports';
import { bimiTool } from '../../../services/tools/bimi-check';
import { certificateFindings, vmcAtUrl, vmcForDomain } from '../../../services/tools/vmc-check';

/** What a visitor reads when every tool slot and place in the queue is taken. */
export const TOOLS_BUSY = 'The tools are busy just now. Please try again in a few seconds.';

/**
 * The name as DNS will be asked (a pasted URL or address reduced to its domain, lower case, ASCII);
 * otherwise a 400 in the shape of every validation error: "domain: Please enter a valid domain name …".
 */
function domainOf(field: string, input: string): string {
  const valid = validateDomain(input);
  if (!valid.ok) throw new HttpError(400, `${field}: ${valid.error}`);
  return valid.domain;
}

/**
 * Every answer with its verdict (@bimi/email-auth `verdictOf`): the headline answering the tool's
 * question and the score in the same band. When the question is about a domain, whether it exists
 * is asked alongside the inspection: a nonexistent domain is answered as such, not told to publish records.
 */
function withVerdict<Tool extends ToolName>(tool: Tool, domain: string | undefined, compute: (io: ToolIo) => Promise<ToolFindings<Tool>>): (io: ToolIo) => Promise<ToolFindings<Tool>> {
  return async (io) => {
    const [findings, exists] = await Promise.all([compute(io), domain === undefined ? true : domainExists(domain, io.dns)]);
    return answerWithVerdict(tool, findings, exists, domain);
  };
}

export function answerWithVerdict<Tool extends ToolName>(tool: Tool, findings: ToolFindings<Tool>, exists = true, subject?: string): ToolFindings<Tool> {
  const verdict = verdictOf(tool, findings.checks, findings.score, { exists, subject });
  return { ...findings, score: verdict.score, verdict };
}

/**
 * The e-mail authentication tools (issue 5). Every answer is a ToolAnswer; DNS and fetch failures
 * are checks inside it, never an error status. Each client address may run each tool a limited
 * number of times a minute, and identical questions within a minute share one answer.
 */
const tools: FastifyPluginAsyncZod = async (fastify) => {
  const rateLimit = { max: fastify.config.tools.rateLimitPerMinute, timeWindow: '1 minute' };
  // Anonymous and expensive (DNS, fetches, the worker pool): a limit on answers worked out at once
  // across all visitors, as many again waiting; past that the visitor is asked to try again.
  const { concurrency } = fastify.config.tools;
  const working = concurrencyLimit(concurrency, concurrency);
  async function limited<T>(work: () => Promise<T>): Promise<T> {
    const outcome = await working.run(work);
    if (outcome === working.BUSY) throw new HttpError(503, TOOLS_BUSY);
    return outcome as T;
  }

  async function send<Tool extends ToolName>(reply: FastifyReply, tool: Tool, query: Record<string, string>, compute: (io: ToolIo) => Promise<ToolFindings<NoInfer<Tool>>>) {
    // The domain, or the TXT or CNAME tool's name, is asked whether it exists (`domainExists`, the
    // rule Add Monitor asks too): a name DNS does not have is answered as such (with no step to
    // monitor it). A CNAME that dangles exists, and that tool says so.
    const domain = query.domain ?? query.name;
    const { answer, cached } = await fastify.toolAnswers.answer(tool, query, (io) => limited(() => withVerdict(tool, domain, compute)(io)));
    return reply
      .header('cache-control', 'no-store')
      .header('x-tool-cache', cached ? 'hit' : 'miss')
      .send(answer);
  }

  fastify.get('/dmarc', { schema: { querystring: DomainToolQuery, response: { 200: DmarcAnswer } }, config: { rateLimit } }, async (request, reply) => {
    const domain = domainOf('domain', request.query.domain);
    return send(reply, 'dmarc', { domain }, (io) => inspectDmarc(domain, io.dns));
  });

  // With ip (and optionally sender, helo) the answer also says whether that mail would pass: details.evaluation.
  fastify.get('/spf', { schema: { querystring: SpfToolQuery, response: { 200: SpfAnswer } }, config: { rateLimit } }, async (request, reply) => {
    const domain = domainOf('domain', request.query.domain);
    const { ip, sender, helo } = request.query;
    if (ip === undefined) return send(reply, 'spf', { domain }, (io) => inspectSpf(domain, io.dns));
    const client = parseClientIp(ip);
    if (!client) throw new HttpError(400, 'ip: Please enter an IPv4 or IPv6 address, e.g., 192.0.2.10');
    const query = { domain, ip: client.toString(), ...(sender ? { sender } : {}), ...(helo ? { helo } : {}) };
    return send(reply, 'spf', query, async (io) => {
      const [inspection, evaluation] = await Promise.all([inspectSpf(domain, io.dns), evaluateSpf({ ...query, receiver: request.hostname }, io.dns)]);
      return { ...inspection, details: { ...inspection.details, evaluation } };
    });
  });

  fastify.get('/dkim', { schema: { querystring: SelectorToolQuery, response: { 200: DkimAnswer } }, config: { rateLimit } }, async (request, reply) => {
    const domain = domainOf('domain', request.query.domain);
    const { selector } = request.query;
    return send(reply, 'dkim', selector ? { domain, selector } : { domain }, (io) => inspectDkim(domain, { selector }, io.dns));
  });

  fastify.get('/bimi', { schema: { querystring: SelectorToolQuery, response: { 200: BimiAnswer } }, config: { rateLimit } }, async (request, reply) => {
    const domain = domainOf('domain', request.query.domain);
    const { selector } = request.query;
    return send(reply, 'bimi', selector ? { domain, selector } : { domain }, (io) => bimiTool(domain, selector, io, fastify.untrustedFiles));
  });

  fastify.get('/vmc', { schema: { querystring: VmcToolQuery, response: { 200: VmcAnswer } }, config: { rateLimit } }, async (request, reply) => {
    const { url } = request.query;
    if (url) return send(reply, 'vmc', { url }, (io) => vmcAtUrl(url, io, fastify.untrustedFiles));
    const domain = domainOf('domain', request.query.domain ?? '');
    return send(reply, 'vmc', { domain }, (io) => vmcForDomain(domain, io, fastify.untrustedFiles));
  });

  // An uploaded certificate is checked as sent; nothing is fetched, so nothing is cached.
  fastify.post('/vmc', { schema: { body: VmcUpload, response: { 200: VmcAnswer } }, config: { rateLimit }, bodyLimit: 96 * 1024 }, async (request, reply) => {
    const domain = request.body.domain === undefined ? undefined : domainOf('domain', request.body.domain);
    const answer: ToolAnswer<'vmc'> = {
      tool: 'vmc',
      query: domain ? { domain } : {},
      ...answerWithVerdict('vmc', await limited(() => certificateFindings(request.body.pem, { files: fastify.untrustedFiles, domain }))),
    };
    return reply.header('cache-control', 'no-store').send(answer);
  });

  fastify.get('/txt', { schema: { querystring: NameToolQuery, response: { 200: TxtAnswer } }, config: { rateLimit } }, async (request, reply) => {
    const name = domainOf('name', request.query.name);
    return send(reply, 'txt', { name }, (io) => inspectTxt(name, io.dns));
  });

  fastify.get('/cname', { schema: { querystring: NameToolQuery, response: { 200: CnameAnswer } }, config: { rateLimit } }, async (request, reply) => {
    const name = domainOf('name', request.query.name);
    return send(reply, 'cname', { name }, (io) => inspectCname(name, io.dns));
  });

  fastify.get('/records', { schema: { querystring: DomainToolQuery, response: { 200: RecordsAnswer } }, config: { rateLimit } }, async (request, reply) => {
    const domain = domainOf('domain', request.query.domain);
    return send(reply, 'records', { domain }, (io) => inspectRecords(domain, io.dns));
  });
};

export default tools;
