import * as z from 'zod/mini';

/**
 * The email-authentication tools' API (issue 5): every checker answers GET /api/tools/<tool>
 * with the same shape, `{query, records, checks, score?}`, plus tool-specific details.
 * The record logic that produces the checks lives in @bimi/email-auth; the bff does the I/O.
 */

/**
 * `fail`: the record is wrong; `absent`: there is none; `unreachable`: it could not be fetched or
 * resolved (say so, retryable); `warn`, `pass`; `info`: graded nothing.
 */
export const CHECK_STATUSES = ['pass', 'warn', 'fail', 'info', 'unreachable', 'absent'] as const;
export const CheckStatus = z.enum(CHECK_STATUSES);
export type CheckStatus = z.infer<typeof CheckStatus>;

/** One finding, explained in plain words; `fix` says what to change when it is not a pass. */
export const Check = z.object({
  /** Stable identifier, e.g. `dmarc.policy.none`, `spf.lookups.limit`; tests and the UI key on it. */
  id: z.string(),
  status: CheckStatus,
  title: z.string(),
  detail: z.string(),
  fix: z.optional(z.string()),
});
export type Check = z.infer<typeof Check>;

/** A DNS record as published: the owner name, type and the value (TXT strings joined). */
export const DnsRecord = z.object({
  name: z.string(),
  type: z.string(),
  value: z.string(),
  ttl: z.optional(z.number()),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

export const TOOL_NAMES = ['dmarc', 'spf', 'dkim', 'bimi', 'vmc', 'txt', 'cname', 'records'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export const VERDICT_STATUSES = [...CHECK_STATUSES, 'nonexistent'] as const;
/** The headline of an answer: the question, its answer, the status it stands for, the score in the same band. */
export const Verdict = z.object({
  question: z.string(),
  headline: z.string(),
  status: z.enum(VERDICT_STATUSES),
  score: z.optional(z.number()),
  /** Ids of the hygiene findings (reporting, record style), shown in a band of their own. */
  hygiene: z.array(z.string()),
});
export type Verdict = z.infer<typeof Verdict>;
export type VerdictStatus = Verdict['status'];

/** What every tool endpoint answers. `details` carries what one tool adds (logo, certificate, SPF tree…). */
export const ToolAnswer = z.object({
  query: z.record(z.string(), z.string()),
  records: z.array(DnsRecord),
  checks: z.array(Check),
  /** 0–100, where the tool grades a whole setup (DMARC, SPF, DKIM, BIMI, VMC); `verdict.score`. */
  score: z.optional(z.number()),
  /** The answer to the user's question, from @bimi/email-auth `verdictOf` (its README has the score formula). */
  verdict: z.optional(Verdict),
  details: z.optional(z.record(z.string(), z.unknown())),
});
export type ToolAnswer = z.infer<typeof ToolAnswer>;
/** What a tool found, before the bff adds the query it answered. */
export type ToolFindings = Omit<ToolAnswer, 'query'>;


/** Check statuses from worst to best: fails first in every list, and the worst one sums up an answer. */
export const CHECK_SEVERITY: Record<CheckStatus, number> = { fail: 0, absent: 1, unreachable: 2, warn: 3, pass: 4, info: 5 };

/** The worst status among the checks (as @bimi/email-auth `worstStatus`); `info` when nothing is graded. */
export function summarize(checks: readonly Check[]): CheckStatus {
  let worst: CheckStatus = 'info';
  for (const check of checks) if (CHECK_SEVERITY[check.status] < CHECK_SEVERITY[worst]) worst = check.status;
  return worst;
}

// Query strings of the tool endpoints. Names are checked in full by the bff with the one domain rule
// of @bimi/email-auth/domain-input (which also reduces a pasted URL or address to its domain, and
// says the same words as the forms); these bound their size and shape.
const DomainInput = z.string({ error: 'Domain is required' }).check(
  z.trim(),
  z.minLength(1, 'Please enter a domain name'),
  z.maxLength(1024, 'Domain name is too long'),
);
const DnsNameInput = z.string({ error: 'Name is required' }).check(
  z.trim(),
  z.minLength(1, 'Please enter a DNS name'),
  z.maxLength(1024, 'DNS name is too long'),
);
/** A DKIM or BIMI selector: one or more labels of letters, digits, hyphens and underscores. */
export const Selector = z.string().check(
  z.trim(),
  z.toLowerCase(),
  z.regex(/^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*$/, 'A selector is letters, digits, hyphens and underscores, for example default or s1.'),
);

export const DomainToolQuery = z.object({ domain: DomainInput });
export type DomainToolQuery = z.infer<typeof DomainToolQuery>;
export const SelectorToolQuery = z.object({ domain: DomainInput, selector: z.optional(Selector) });
export type SelectorToolQuery = z.infer<typeof SelectorToolQuery>;
/**
 * The SPF lookup, and optionally the evaluation of one message (RFC 7208 check_host()): would mail
 * from `ip`, with this MAIL FROM `sender` and `helo` name, pass for `domain`? The sender and HELO
 * need the address.
 */
export const SpfToolQuery = z
  .object({
    domain: DomainInput,
    ip: z.optional(z.string().check(z.trim(), z.maxLength(64, 'That is too long to be an IP address.'), z.regex(/^(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*)$/, 'Please enter an IPv4 or IPv6 address, e.g., 192.0.2.10'))),
    sender: z.optional(z.string().check(z.trim(), z.maxLength(320, 'The sender address is too long.'), z.regex(/^[^\s@]*@?[^\s@]+$/, 'Please enter the MAIL FROM address, e.g., bounce@example.com'))),
    helo: z.optional(z.string().check(z.trim(), z.maxLength(253, 'The HELO name is too long.'), z.regex(/^[^\s]+$/, 'A HELO name has no spaces, e.g., mail.example.com'))),
  })
  .check(z.refine((query) => query.ip !== undefined || (query.sender === undefined && query.helo === undefined), { message: 'Give the IP address of the sending server to evaluate a sender or HELO name.', path: ['ip'] }));
export type SpfToolQuery = z.infer<typeof SpfToolQuery>;

export const SPF_RESULTS = ['pass', 'fail', 'softfail', 'neutral', 'none', 'permerror', 'temperror'] as const;
/** `details.evaluation` of an SPF answer when an IP address was given: check_host()'s verdict. */
export const SpfEvaluation = z.object({
  result: z.enum(SPF_RESULTS),
  ip: z.string(),
  domain: z.string(),
  sender: z.string(),
  helo: z.string(),
  matched: z.optional(z.object({ term: z.string(), domain: z.string() })),
  reason: z.string(),
  explanation: z.optional(z.string()),
  lookups: z.number(),
  voidLookups: z.number(),
  record: z.optional(z.string()),
  trace: z.array(z.object({ domain: z.string(), term: z.string(), depth: z.number(), target: z.optional(z.string()), outcome: z.enum(['match', 'no match', 'error', 'result']), note: z.optional(z.string()) })),
});
export type SpfEvaluation = z.infer<typeof SpfEvaluation>;

/** `details.flattening` of an SPF answer over 10 lookups: what each include costs and a flattened record. */
export const SpfFlattening = z.object({
  lookups: z.number(),
  includes: z.array(z.object({ term: z.string(), lookups: z.number(), flattenable: z.boolean(), reason: z.optional(z.string()), addresses: z.array(z.string()) })),
  record: z.string(),
  recordLookups: z.number(),
  strings: z.array(z.string()),
  bytes: z.number(),
  risks: z.array(z.string()),
});
export type SpfFlattening = z.infer<typeof SpfFlattening>;

/** `details.differences` of a DMARC answer: where RFC 7489 and RFC 9989 answer differently for the domain. */
export const DmarcDifferences = z.array(z.object({ aspect: z.enum(['organizational domain', 'policy record', 'policy']), rfc7489: z.string(), rfc9989: z.string() }));
export type DmarcDifferences = z.infer<typeof DmarcDifferences>;

export const NameToolQuery = z.object({ name: DnsNameInput });
export type NameToolQuery = z.infer<typeof NameToolQuery>;

/** The VMC validator reads the certificate a domain's BIMI record points at, or one at a URL. */
export const VmcToolQuery = z
  .object({
    domain: z.optional(DomainInput),
    url: z.optional(z.string().check(z.trim(), z.maxLength(2048, 'That address is too long.'), z.url({ protocol: /^https$/, error: 'Enter an https:// address of a PEM file.' }))),
  })
  .check(z.refine((query) => (query.domain === undefined) !== (query.url === undefined), { message: 'Give either a domain or the https:// address of a certificate.', path: ['domain'] }));
export type VmcToolQuery = z.infer<typeof VmcToolQuery>;

/** Most a mark-certificate PEM bundle may weigh (real ones are 10–40 KB). */
export const MAX_PEM_BYTES = 64 * 1024;
/** An uploaded certificate: the PEM text, and optionally the domain it must name. */
export const VmcUpload = z.object({
  pem: z.string({ error: 'Upload a PEM certificate file.' }).check(
    z.minLength(1, 'Upload a PEM certificate file.'),
    z.maxLength(MAX_PEM_BYTES, 'The certificate file is larger than 64 KB; upload the PEM bundle your issuer delivered.'),
  ),
  domain: z.optional(DomainInput),
});
export type VmcUpload = z.infer<typeof VmcUpload>;
