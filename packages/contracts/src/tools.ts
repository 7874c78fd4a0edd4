import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';
import { CHECK_STATUSES, Check, CheckStatus } from './checks';

/**
 * The email-authentication tools' API (issue 5): every checker answers GET /api/tools/<tool>
 * with the same shape, `{tool, query, records, checks, score?, verdict?, details}`, where `details`
 * is what that tool adds, with a schema of its own (`ToolAnswer` tells the tools apart by `tool`).
 * The record logic that produces the checks lives in @bimi/email-auth; the bff does the I/O.
 */

export { CHECK_STATUSES, Check, CheckStatus };

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
const DomainInput = z.string({ error: 'Domain is required' }).check(z.trim(), z.minLength(1, 'Please enter a domain name'), lengthLimit(1024, 'Domain name is too long'));
const DnsNameInput = z.string({ error: 'Name is required' }).check(z.trim(), z.minLength(1, 'Please enter a DNS name'), lengthLimit(1024, 'DNS name is too long'));
/** A DKIM or BIMI selector: one or more labels of letters, digits, hyphens and underscores. */
export const Selector = z.string().check(
  // Far over first, before anything reads it; then, trimmed, its own limit.
  lengthLimit(1024, 'A selector is at most 253 characters.'),
  z.trim(),
  lengthLimit(253, 'A selector is at most 253 characters.'),
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
    ip: z.optional(
      z
        .string()
        .check(
          z.trim(),
          lengthLimit(64, 'That is too long to be an IP address.'),
          z.regex(/^(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9a-fA-F.]*:[0-9a-fA-F:.]*)$/, 'Please enter an IPv4 or IPv6 address, e.g., 192.0.2.10'),
        ),
    ),
    sender: z.optional(
      z.string().check(z.trim(), lengthLimit(320, 'The sender address is too long.'), z.regex(/^(?:[^\s@]*@)?[^\s@]+$/, 'Please enter the MAIL FROM address, e.g., bounce@example.com')),
    ),
    helo: z.optional(z.string().check(z.trim(), lengthLimit(253, 'The HELO name is too long.'), z.regex(/^[^\s]+$/, 'A HELO name has no spaces, e.g., mail.example.com'))),
  })
  .check(
    z.refine((query) => query.ip !== undefined || (query.sender === undefined && query.helo === undefined), {
      message: 'Give the IP address of the sending server to evaluate a sender or HELO name.',
      path: ['ip'],
    }),
  );
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
  trace: z.array(
    z.object({
      domain: z.string(),
      term: z.string(),
      depth: z.number(),
      target: z.optional(z.string()),
      outcome: z.enum(['match', 'no match', 'error', 'result']),
      note: z.optional(z.string()),
    }),
  ),
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
    url: z.optional(z.string().check(z.trim(), lengthLimit(2048, 'That address is too long.'), z.url({ protocol: /^https$/, error: 'Enter an https:// address of a PEM file.' }))),
  })
  .check(z.refine((query) => (query.domain === undefined) !== (query.url === undefined), { message: 'Give either a domain or the https:// address of a certificate.', path: ['domain'] }));
export type VmcToolQuery = z.infer<typeof VmcToolQuery>;

/** Most a mark-certificate PEM bundle may weigh (real ones are 10–40 KB). */
export const MAX_PEM_BYTES = 64 * 1024;
/** An uploaded certificate: the PEM text, and optionally the domain it must name. */
export const VmcUpload = z.object({
  pem: z
    .string({ error: 'Upload a PEM certificate file.' })
    .check(z.minLength(1, 'Upload a PEM certificate file.'), lengthLimit(MAX_PEM_BYTES, 'The certificate file is larger than 64 KB; upload the PEM bundle your issuer delivered.')),
  domain: z.optional(DomainInput),
});
export type VmcUpload = z.infer<typeof VmcUpload>;

// What each tool adds to its answer, as `details`: the shapes of @bimi/email-auth's inspections and
// of the bff's logo and certificate reads, field for field. The bff's answers are encoded with these
// schemas, so a field left out here would be dropped from the answer (its tests compare the two).

/** One `name=value` pair of a published record, in the order written. */
export const RecordTag = z.object({ name: z.string(), value: z.string() });
export type RecordTag = z.infer<typeof RecordTag>;

const DmarcPolicy = z.enum(['none', 'quarantine', 'reject']);
const Alignment = z.enum(['r', 's']);

/** One report destination from rua= or ruf=: `mailto:addr[!size]`. */
export const DmarcReportUri = z.object({
  uri: z.string(),
  scheme: z.string(),
  address: z.optional(z.string()),
  domain: z.optional(z.string()),
  maxSize: z.optional(z.string()),
  valid: z.boolean(),
});

/** A DMARC record taken apart (@bimi/email-auth `DmarcRecord`). */
export const DmarcRecord = z.object({
  text: z.string(),
  tags: z.array(RecordTag),
  p: z.optional(DmarcPolicy),
  sp: z.optional(DmarcPolicy),
  np: z.optional(DmarcPolicy),
  pct: z.number(),
  adkim: Alignment,
  aspf: Alignment,
  fo: z.array(z.string()),
  rua: z.array(DmarcReportUri),
  ruf: z.array(DmarcReportUri),
  testing: z.boolean(),
  psd: z.optional(z.enum(['y', 'n', 'u'])),
  fallback: z.optional(z.object({ rfc7489: z.enum(['none', 'ignored']), rfc9989: z.literal('none') })),
});

/** What RFC 9989's DNS tree walk finds for the domain (@bimi/email-auth `DmarcTreeWalk`). */
export const DmarcTreeWalk = z.object({
  queried: z.array(z.string()),
  recordDomain: z.optional(z.string()),
  organizationalDomain: z.string(),
  policy: z.optional(DmarcPolicy),
  policyTag: z.optional(z.enum(['p', 'sp', 'np'])),
  testing: z.boolean(),
});

/** `details` of a DMARC answer (@bimi/email-auth `DmarcDetails`). */
export const DmarcDetails = z.object({
  domain: z.string(),
  organizationalDomain: z.optional(z.string()),
  recordDomain: z.optional(z.string()),
  inherited: z.boolean(),
  record: z.nullable(DmarcRecord),
  policy: z.optional(DmarcPolicy),
  bimiReady: z.boolean(),
  rfc9989: z.optional(DmarcTreeWalk),
  differences: z.optional(DmarcDifferences),
});
export type DmarcDetails = z.infer<typeof DmarcDetails>;

/** One record of the SPF include/redirect tree (@bimi/email-auth `SpfNode`). */
export const SpfNode = z.object({
  domain: z.string(),
  via: z.enum(['root', 'include', 'redirect']),
  qualifier: z.optional(z.enum(['+', '-', '~', '?'])),
  record: z.optional(z.string()),
  lookups: z.number(),
  voidLookups: z.number(),
  get children(): z.ZodMiniArray<typeof SpfNode> {
    return z.array(SpfNode);
  },
  problem: z.optional(z.enum(['missing', 'multiple', 'dns-error', 'loop', 'invalid', 'macro', 'truncated'])),
});
export type SpfNode = z.infer<typeof SpfNode>;

/** `details` of an SPF answer (@bimi/email-auth `SpfDetails`), with the evaluation of one message when an IP address was given. */
export const SpfDetails = z.object({
  domain: z.string(),
  record: z.optional(z.string()),
  tree: z.optional(SpfNode),
  lookups: z.number(),
  voidLookups: z.number(),
  truncated: z.boolean(),
  flattening: z.optional(SpfFlattening),
  evaluation: z.optional(SpfEvaluation),
});
export type SpfDetails = z.infer<typeof SpfDetails>;

/** A DKIM public key as read from p=, or why it cannot be read. */
export const DkimKey = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), type: z.enum(['rsa', 'ed25519']), bits: z.number(), format: z.enum(['spki', 'pkcs1', 'raw']) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

/** A DKIM key record taken apart (@bimi/email-auth `DkimRecord`). */
export const DkimRecord = z.object({
  text: z.string(),
  tags: z.array(RecordTag),
  version: z.optional(z.string()),
  keyType: z.string(),
  /** '' when the key is revoked; absent when the record has no p= at all. */
  publicKey: z.optional(z.string()),
  hashAlgorithms: z.optional(z.array(z.string())),
  serviceTypes: z.optional(z.array(z.string())),
  flags: z.array(z.string()),
  notes: z.optional(z.string()),
  key: z.optional(DkimKey),
});

/** `details` of a DKIM answer (@bimi/email-auth `DkimDetails`): the selectors tried, and each one found with its own checks. */
export const DkimDetails = z.object({
  domain: z.string(),
  tried: z.array(z.string()),
  selectors: z.array(
    z.object({
      selector: z.string(),
      name: z.string(),
      status: z.enum(['found', 'none', 'error']),
      record: z.optional(DkimRecord),
      checks: z.array(Check),
      score: z.number(),
    }),
  ),
});
export type DkimDetails = z.infer<typeof DkimDetails>;

/** A BIMI record taken apart (@bimi/email-auth `BimiRecord`). */
export const BimiRecord = z.object({
  text: z.string(),
  tags: z.array(RecordTag),
  logos: z.array(z.string()),
  evidence: z.optional(z.string()),
  localParts: z.optional(z.array(z.string())),
  avatarPreference: z.optional(z.enum(['brand', 'personal'])),
  declined: z.boolean(),
});

/** A mark certificate (VMC or CMC) as the bff reads it (bff/src/services/mark-certificates/validate.ts). */
export const MarkCertificate = z.object({
  certificateType: z.optional(z.enum(['VMC', 'CMC'])),
  markType: z.optional(z.string()),
  organization: z.optional(z.string()),
  commonName: z.optional(z.string()),
  issuer: z.optional(z.string()),
  issuerOrganization: z.optional(z.string()),
  serialNumber: z.string(),
  fingerprint: z.string(),
  validFrom: z.nullable(z.string()),
  validTo: z.nullable(z.string()),
  daysLeft: z.number(),
  subjectAltNames: z.array(z.string()),
  trademarkOffice: z.optional(z.string()),
  trademarkCountry: z.optional(z.string()),
  trademarkRegistration: z.optional(z.string()),
  wordMark: z.optional(z.string()),
  chainLength: z.number(),
  /** The logo the certificate carries, as a data: URL (the inbox preview). */
  logoDataUrl: z.optional(z.string()),
  logoHash: z.optional(z.string()),
});
export type MarkCertificate = z.infer<typeof MarkCertificate>;

/** `details.logo` of a BIMI answer: the SVG fetched from l=, read against SVG Tiny PS. */
export const BimiLogo = z.object({
  url: z.string(),
  finalUrl: z.string(),
  contentType: z.optional(z.string()),
  svg: z.object({
    bytes: z.number(),
    title: z.optional(z.string()),
    viewBox: z.optional(z.tuple([z.number(), z.number(), z.number(), z.number()])),
    width: z.optional(z.string()),
    height: z.optional(z.string()),
  }),
  score: z.number(),
  /** The published SVG as a data: URL, shown in an <img> (where an SVG runs no script). */
  dataUrl: z.string(),
});

/**
 * `details` of a BIMI answer: @bimi/email-auth `BimiDetails`, and what the bff fetched: the logo,
 * and the certificate at a= (its address alone when the file could not be read as one).
 */
export const BimiDetails = z.object({
  domain: z.string(),
  selector: z.string(),
  recordDomain: z.optional(z.string()),
  inherited: z.boolean(),
  record: z.nullable(BimiRecord),
  dmarc: z.optional(DmarcDetails),
  dmarcReady: z.boolean(),
  logo: z.optional(BimiLogo),
  certificate: z.optional(z.union([z.extend(MarkCertificate, { url: z.string() }), z.object({ url: z.string() })])),
});
export type BimiDetails = z.infer<typeof BimiDetails>;

/** `details` of a VMC answer: where the certificate (and logo) came from, and the certificate when it could be read. */
export const VmcDetails = z.object({
  certificateUrl: z.optional(z.string()),
  logoUrl: z.optional(z.string()),
  certificate: z.optional(MarkCertificate),
});
export type VmcDetails = z.infer<typeof VmcDetails>;

/** `details` of a TXT answer: whether the name exists, and each TXT record with its strings and what it is for. */
export const TxtDetails = z.object({
  exists: z.boolean(),
  records: z.array(z.object({ value: z.string(), strings: z.array(z.string()), kind: z.optional(z.string()) })),
});

/** `details` of a CNAME answer: the name, then each alias target in turn, and the addresses at the end. */
export const CnameDetails = z.object({ chain: z.array(z.string()), addresses: z.optional(z.array(z.string())) });

/** `details` of the all-records answer: each lookup made and what it found. */
export const RecordsDetails = z.object({
  lookups: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), status: z.enum(['found', 'none', 'error']), count: z.number() })),
});

/** The answer of one tool: which tool answered, the query it answered, and that tool's `details`. */
function toolAnswer<const Tool extends ToolName, Details extends z.ZodMiniType>(tool: Tool, details: Details) {
  return z.object({
    tool: z.literal(tool),
    query: z.record(z.string(), z.string()),
    records: z.array(DnsRecord),
    checks: z.array(Check),
    /** 0–100, where the tool grades a whole setup (DMARC, SPF, DKIM, BIMI, VMC); `verdict.score`. */
    score: z.optional(z.number()),
    /** The answer to the user's question, from @bimi/email-auth `verdictOf` (its README has the score formula). */
    verdict: z.optional(Verdict),
    details,
  });
}

export const DmarcAnswer = toolAnswer('dmarc', DmarcDetails);
export const SpfAnswer = toolAnswer('spf', SpfDetails);
export const DkimAnswer = toolAnswer('dkim', DkimDetails);
export const BimiAnswer = toolAnswer('bimi', BimiDetails);
// A VMC answer has no details when no BIMI record names a certificate.
export const VmcAnswer = toolAnswer('vmc', z.optional(VmcDetails));
// The lookups without a score may find nothing worth detailing.
export const TxtAnswer = toolAnswer('txt', z.optional(TxtDetails));
export const CnameAnswer = toolAnswer('cname', z.optional(CnameDetails));
export const RecordsAnswer = toolAnswer('records', z.optional(RecordsDetails));

/** What every tool endpoint answers, told apart by `tool`: GET /api/tools/<tool> answers that tool's schema. */
export const ToolAnswer = z.discriminatedUnion('tool', [DmarcAnswer, SpfAnswer, DkimAnswer, BimiAnswer, VmcAnswer, TxtAnswer, CnameAnswer, RecordsAnswer]);

// The types map each tool's name to its answer, in the shape TypeScript follows through a function
// generic over the tool: the bff builds `{tool, query, ...findings}` for any one tool, and a page
// reads the details of the tool it asked.
type FindingsOf = { [Tool in ToolName]: Omit<Extract<z.infer<typeof ToolAnswer>, { tool: Tool }>, 'tool' | 'query'> };
/** What a tool found, before the bff adds which tool it was and the query it answered. */
export type ToolFindings<Tool extends ToolName = ToolName> = FindingsOf[Tool];
/** The answer of `Tool`; without one, the answer of any tool, told apart by `tool`. */
export type ToolAnswer<Tool extends ToolName = ToolName> = { [T in Tool]: { tool: T; query: Record<string, string> } & FindingsOf[T] }[Tool];

/** Whether an answer is `tool`'s, and so has that tool's details. */
export function isAnswerOf<Tool extends ToolName>(answer: Pick<ToolAnswer, 'tool'>, tool: Tool): answer is ToolAnswer<Tool> {
  return answer.tool === tool;
}
