import { DomainToolQuery, NameToolQuery, SelectorToolQuery, SpfToolQuery, ToolAnswer, VmcToolQuery, VmcUpload, type ToolFindings, type ToolName } from '@bimi/contracts/tools';
import type { Inspection } from '@bimi/email-auth/checks';
import { inspectDkim } from '@bimi/email-auth/dkim';
import { inspectCname, inspectRecords, inspectTxt, type Findings } from '@bimi/email-auth/dns-records';
import { inspectDmarc } from '@bimi/email-auth/dmarc';
import { validateDomain } from '@bimi/email-auth/domain';
import { domainExists, verdictOf } from '@bimi/email-auth/verdict';
import { inspectSpf } from '@bimi/email-auth/spf';
import { evaluateSpf } from '@bimi/email-auth/spf-evaluate';
import { parseClientIp } from '@bimi/email-auth/spf-macro';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../../../lib/http-error';
import type { ToolIo } from '../../../plugins/app/tool-answers';
import { bimiTool } from '../../../services/tools/bimi-check';
import { certificateFindings, vmcAtUrl, vmcForDomain } from '../../../services/tools/vmc-check';

/**
 * The name as DNS will be asked (a pasted URL or address reduced to its domain, lower case, ASCII);
 * otherwise a 400 in the shape of every validation error: "domain: Please enter a valid domain name …".
 */
function domainOf(field: string, input: string): string {
  const valid = validateDomain(input);
  if (!valid.ok) throw new HttpError(400, `${field}: ${valid.error}`);
  return valid.domain;
}

/** An inspection of @bimi/email-auth as the tools answer it (the query is added by the caller). */
function fromInspection<Details extends object>(inspection: Inspection<Details>): ToolFindings {
  return { records: inspection.records, checks: inspection.checks, score: inspection.score, details: inspection.details as Record<string, unknown> };
}

/** An unscored inspection (TXT, CNAME, records) as the tools answer it. */
function fromFindings<Details extends object>(findings: Findings<Details>): ToolFindings {
  const { records, checks, details } = findings;
  return details === undefined ? { records, checks } : { records, checks, details: details as Record<string, unknown> };
}

const response = { 200: ToolAnswer };

/**
 * Every answer with its verdict (@bimi/email-auth `verdictOf`): the headline answering the tool's
 * question and the score in the same band. When the question is about a domain, whether it exists
 * is asked alongside the inspection: a nonexistent domain is answered as such, not told to publish records.
 */
function withVerdict(tool: ToolName, domain: string | undefined, compute: (io: ToolIo) => Promise<ToolFindings>): (io: ToolIo) => Promise<ToolFindings> {
  return async (io) => {
    const [findings, exists] = await Promise.all([compute(io), domain === undefined ? true : domainExists(domain, io.dns)]);
    return answerWithVerdict(tool, findings, exists, domain);
  };
}

export function answerWithVerdict(tool: ToolName, findings: ToolFindings, exists = true, subject?: string): ToolFindings {
  const verdict = verdictOf(tool, findings.checks, findings.score, { exists, subject });
  const { score: _score, ...rest } = findings;
  return verdict.score === undefined ? { ...rest, verdict } : { ...rest, score: verdict.score, verdict };
}

/**
 * The e-mail authentication tools (issue 5). Every answer is a ToolAnswer; DNS and fetch failures
 * are checks inside it, never an error status. Each client address may run each tool a limited
 * number of times a minute, and identical questions within a minute share one answer.
 */
const tools: FastifyPluginAsyncZod = async (fastify) => {
  const rateLimit = { max: fastify.config.tools.rateLimitPerMinute, timeWindow: '1 minute' };

  async function send(reply: FastifyReply, tool: ToolName, query: Record<string, string>, compute: (io: ToolIo) => Promise<ToolFindings>) {
    // Only a domain is asked whether it exists: a TXT or CNAME name may dangle on purpose, and those tools say so.
    const domain = query.domain;
    const { answer, cached } = await fastify.toolAnswers.answer(tool, query, withVerdict(tool, domain, compute));
    return reply.header('cache-control', 'no-store').header('x-tool-cache', cached ? 'hit' : 'miss').send(answer);
  }

  fastify.get('/dmarc', { schema: { querystring: DomainToolQuery, response }, config: { rateLimit } }, async (request, reply) => {
    const domain = domainOf('domain', request.query.domain);
    return send(reply, 'dmarc', { domain }, async (io) => fromInspection(await inspectDmarc(domain, io.dns)));
  });

  // With ip (and optionally sender, helo) the answer also says whether that mail would pass: details.evaluation.
  fastify.get('/spf', { schema: { querystring: SpfToolQuery, response }, config: { rateLimit } }, async (request, reply) => {
    const domain = domainOf('domain', request.query.domain);
    const { ip, sender, helo } = request.query;
    if (ip === undefined) return send(reply, 'spf', { domain }, async (io) => fromInspection(await inspectSpf(domain, io.dns)));
    const client = parseClientIp(ip);
    if (!client) throw new HttpError(400, 'ip: Please enter an IPv4 or IPv6 address, e.g., 192.0.2.10');
    const query = { domain, ip: client.toString(), ...(sender ? { sender } : {}), ...(helo ? { helo } : {}) };
    return send(reply, 'spf', query, async (io) => {
      const [inspection, evaluation] = await Promise.all([inspectSpf(domain, io.dns), evaluateSpf({ ...query, receiver: request.hostname }, io.dns)]);
      return { ...fromInspection(inspection), details: { ...inspection.details, evaluation } };
    });
  });

  fastify.get('/dkim', { schema: { querystring: SelectorToolQuery, response }, config: { rateLimit } }, async (request, reply) => {
    const domain = domainOf('domain', request.query.domain);
    const { selector } = request.query;
    return send(reply, 'dkim', selector ? { domain, selector } : { domain }, async (io) => fromInspection(await inspectDkim(domain, { selector }, io.dns)));
  });

  fastify.get('/bimi', { schema: { querystring: SelectorToolQuery, response }, config: { rateLimit } }, async (request, reply) => {
    const domain = domainOf('domain', request.query.domain);
    const { selector } = request.query;
    return send(reply, 'bimi', selector ? { domain, selector } : { domain }, (io) => bimiTool(domain, selector, io, fastify.untrustedFiles));
  });

  fastify.get('/vmc', { schema: { querystring: VmcToolQuery, response }, config: { rateLimit } }, async (request, reply) => {
    const { url } = request.query;
    if (url) return send(reply, 'vmc', { url }, (io) => vmcAtUrl(url, io, fastify.untrustedFiles));
    const domain = domainOf('domain', request.query.domain ?? '');
    return send(reply, 'vmc', { domain }, (io) => vmcForDomain(domain, io, fastify.untrustedFiles));
  });

  // An uploaded certificate is checked as sent; nothing is fetched, so nothing is cached.
  fastify.post('/vmc', { schema: { body: VmcUpload, response }, config: { rateLimit }, bodyLimit: 96 * 1024 }, async (request, reply) => {
    const domain = request.body.domain === undefined ? undefined : domainOf('domain', request.body.domain);
    const answer: ToolAnswer = { query: domain ? { domain } : {}, ...answerWithVerdict('vmc', await certificateFindings(request.body.pem, { files: fastify.untrustedFiles, domain })) };
    return reply.header('cache-control', 'no-store').send(answer);
  });

  fastify.get('/txt', { schema: { querystring: NameToolQuery, response }, config: { rateLimit } }, async (request, reply) => {
    const name = domainOf('name', request.query.name);
    return send(reply, 'txt', { name }, async (io) => fromFindings(await inspectTxt(name, io.dns)));
  });

  fastify.get('/cname', { schema: { querystring: NameToolQuery, response }, config: { rateLimit } }, async (request, reply) => {
    const name = domainOf('name', request.query.name);
    return send(reply, 'cname', { name }, async (io) => fromFindings(await inspectCname(name, io.dns)));
  });

  fastify.get('/records', { schema: { querystring: DomainToolQuery, response }, config: { rateLimit } }, async (request, reply) => {
    const domain = domainOf('domain', request.query.domain);
    return send(reply, 'records', { domain }, async (io) => fromFindings(await inspectRecords(domain, io.dns)));
  });
};

export default tools;
