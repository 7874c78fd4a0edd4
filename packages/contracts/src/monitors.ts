import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';
import { Check, CheckStatus } from './checks';

/**
 * Domain monitors (issue 13): how a sending domain and its logo appear in mailboxes that show
 * logos, checked on a schedule. Every call is under /api/account/* (401 without a session,
 * X-CSRF-Token on writes, another user's monitor answers 404). A monitor is named by its domain
 * (one per domain per user), so the page /account/monitors/{domain} maps to one API path.
 *
 * - POST   /api/account/monitors/create            MonitorCreateRequest → 201 MonitorCreated, after the first
 *                                                    analysis ran (bounded in time: when it is still running
 *                                                    the answer comes anyway and the page shows "checking").
 *                                                    400 the domain rule's message, 422 a domain that does not exist in DNS,
 *                                                    409 duplicate, 403 the monitor limit; always `message`.
 * - GET    /api/account/monitors                    → MonitorList (the dashboard and the account list)
 * - GET    /api/account/monitors/:domain            → MonitorDetail (latest snapshot, history)
 * - POST   /api/account/monitors/:domain/check      → MonitorDetail after a fresh run (rate limited: 429)
 * - PUT    /api/account/monitors/:domain/status     MonitorStatusChange → MonitorListItem (pause/resume)
 * - DELETE /api/account/monitors/:domain            → 204
 * - GET    /api/account/monitors/:domain/assistant  → AssistantConversation (context and past entries)
 * - POST   /api/account/monitors/:domain/assistant  AssistantRequest → a stream of AssistantStreamEvent,
 *                                                    one JSON object per line (application/x-ndjson): `delta`s
 *                                                    of the answer, then `done` with both stored entries, or
 *                                                    `error`. Rate limited (429 before the stream starts).
 */
export { MONITOR_PATHS } from './api-paths';

// ---------------------------------------------------------------------------------------------
// The domain of a new monitor (spec §5)

/** Spec §5's words for the monitor domain, exactly. {host} is the example host shown. */
export const MONITOR_DOMAIN_MESSAGES = {
  required: 'Domain is required',
  empty: 'Please enter a domain name',
  invalid: 'Please enter a valid domain name (e.g., {host})',
  tooLong: 'Domain name is too long',
} as const;

/**
 * The shape of the one domain rule's answer (@bimi/email-auth/domain-input `normalizeDomainInput`).
 * contracts cannot import email-auth (email-auth depends on contracts), so the rule is passed in:
 * `readMonitorDomain(typed, normalizeDomainInput)` in the modal and in the bff alike.
 */
export type DomainRuleAnswer = { ok: true; domain: string } | { ok: false; reason: string; message: string };
export type DomainRule = (raw: unknown, options?: { example?: string }) => DomainRuleAnswer;

export type MonitorDomainAnswer = { ok: true; domain: string } | { ok: false; message: string };

/**
 * The typed domain as a monitor's domain: lower-cased, scheme and trailing slash removed, or spec §5's
 * message. The rule's other refusals (an IP address, an e-mail address or path) are "not a valid
 * domain name" in the monitor's words, as §5 lists only these four messages.
 */
export function readMonitorDomain(raw: unknown, rule: DomainRule, example = 'example.com'): MonitorDomainAnswer {
  const answer = rule(raw, { example });
  if (answer.ok) return answer;
  switch (answer.reason) {
    case 'required':
      return { ok: false, message: MONITOR_DOMAIN_MESSAGES.required };
    case 'empty':
      return { ok: false, message: MONITOR_DOMAIN_MESSAGES.empty };
    case 'too-long':
      return { ok: false, message: MONITOR_DOMAIN_MESSAGES.tooLong };
    default:
      return { ok: false, message: MONITOR_DOMAIN_MESSAGES.invalid.replace('{host}', example) };
  }
}

/**
 * POST /api/account/monitors/create: the body's shape, bounded. The full rule runs after it
 * (`readMonitorDomain`), in the bff and in the modal; `monitorCreateRequest(rule)` is the same as one schema.
 */
export const MonitorCreateRequest = z.object({
  domain: z.string({ error: MONITOR_DOMAIN_MESSAGES.required }).check(lengthLimit(2048, MONITOR_DOMAIN_MESSAGES.tooLong)),
});
export type MonitorCreateRequest = z.infer<typeof MonitorCreateRequest>;

/** MonitorCreateRequest with the domain rule applied as a check (for forms: one schema, §5's messages). */
export function monitorCreateRequest(rule: DomainRule, example = 'example.com') {
  return z.object({
    domain: z.string({ error: MONITOR_DOMAIN_MESSAGES.required }).check(
      z.superRefine((value, context) => {
        const answer = readMonitorDomain(value, rule, example);
        if (!answer.ok) context.issues.push({ code: 'custom', message: answer.message, input: value });
      }),
    ),
  });
}

// ---------------------------------------------------------------------------------------------
// Monitors

export const MONITOR_STATUSES = ['active', 'paused'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

/** The record groups a snapshot reports, in the order the page shows them. */
export const RECORD_GROUPS = ['dmarc', 'spf', 'dkim', 'bimi', 'logo', 'certificate', 'mx'] as const;
export type RecordGroup = (typeof RECORD_GROUPS)[number];
export const RECORD_GROUP_LABELS: Record<RecordGroup, string> = {
  dmarc: 'DMARC',
  spf: 'SPF',
  dkim: 'DKIM',
  bimi: 'BIMI record',
  logo: 'Logo (SVG Tiny PS)',
  certificate: 'Mark certificate',
  mx: 'Mail servers (MX)',
};

export const MAILBOX_PROVIDERS = ['gmail', 'apple', 'yahoo'] as const;
export type MailboxProvider = (typeof MAILBOX_PROVIDERS)[number];
export const MAILBOX_PROVIDER_LABELS: Record<MailboxProvider, string> = { gmail: 'Gmail', apple: 'Apple Mail', yahoo: 'Yahoo' };

/** The dashboard lists a certificate as expiring soon, and an alert is sent, within this many days. */
export const CERTIFICATE_EXPIRING_WITHIN_DAYS = 30;

/** One thing to fix, worst first: a check that is not a pass, with its group. */
export const MonitorIssue = z.object({
  checkId: z.string(),
  group: z.enum(RECORD_GROUPS),
  status: CheckStatus,
  title: z.string(),
  detail: z.string(),
  /** What to change; always present on an issue. */
  fix: z.string(),
});
export type MonitorIssue = z.infer<typeof MonitorIssue>;

export const MonitorListItem = z.object({
  domain: z.string(),
  status: z.enum(MONITOR_STATUSES),
  /** 0–100; null until the first run finished. */
  healthScore: z.nullable(z.int()),
  worstIssue: z.nullable(MonitorIssue),
  /** ISO time of the last finished run, null before the first. */
  lastCheckedAt: z.nullable(z.string()),
  /** ISO time the published mark certificate ends; null when there is none (or it could not be read). */
  certificateExpiresAt: z.nullable(z.string()),
  /** Whole days until then (negative once expired), null with no certificate. */
  certificateDaysLeft: z.nullable(z.int()),
  /** A run is queued or under way. */
  checking: z.boolean(),
  createdAt: z.string(),
});
export type MonitorListItem = z.infer<typeof MonitorListItem>;

export const MonitorList = z.object({
  monitors: z.array(MonitorListItem),
  /** How many monitors this account may have. */
  limit: z.int(),
});
export type MonitorList = z.infer<typeof MonitorList>;

export const MonitorCreated = z.object({
  domain: z.string(),
  monitor: MonitorListItem,
});
export type MonitorCreated = z.infer<typeof MonitorCreated>;

export const MonitorStatusChange = z.object({ status: z.enum(MONITOR_STATUSES) });
export type MonitorStatusChange = z.infer<typeof MonitorStatusChange>;

/** The checks of one record group, with the records they read. */
export const RecordGroupReport = z.object({
  group: z.enum(RECORD_GROUPS),
  label: z.string(),
  /** The worst status among the checks. */
  status: CheckStatus,
  /** The records as published (name, type, value), for the "what is published" line. */
  records: z.array(z.object({ name: z.string(), type: z.string(), value: z.string() })),
  checks: z.array(Check),
});
export type RecordGroupReport = z.infer<typeof RecordGroupReport>;

export const LogoReport = z.object({
  /** `data:image/svg+xml;base64,…` of the published logo, only when it is valid SVG Tiny PS; show it as an <img>. */
  dataUrl: z.nullable(z.string()),
  /** Why there is no logo to show, in words; null when dataUrl is set. */
  reason: z.nullable(z.string()),
  /** The https:// address in the BIMI record's l= tag. */
  url: z.nullable(z.string()),
  /** The letter mailboxes show instead (the domain's first letter, upper case). */
  initial: z.string(),
});
export type LogoReport = z.infer<typeof LogoReport>;

export const CertificateCard = z.object({
  /** A certificate is published (the BIMI record's a= tag). */
  present: z.boolean(),
  url: z.nullable(z.string()),
  /** VMC or CMC (or null when it could not be read). */
  kind: z.nullable(z.enum(['VMC', 'CMC'])),
  /** Registered Mark, Government Mark, Prior Use Mark, Modified Registered Mark… as the certificate says. */
  markType: z.nullable(z.string()),
  subject: z.nullable(z.string()),
  issuer: z.nullable(z.string()),
  validFrom: z.nullable(z.string()),
  validTo: z.nullable(z.string()),
  daysLeft: z.nullable(z.int()),
  /** The logo in the certificate is the published logo; null when not compared. */
  logoHashMatches: z.nullable(z.boolean()),
  status: CheckStatus,
  /** One sentence: valid until…, expired on…, not published, could not be read because… */
  summary: z.string(),
});
export type CertificateCard = z.infer<typeof CertificateCard>;

export const ProviderDisplay = z.object({
  provider: z.enum(MAILBOX_PROVIDERS),
  label: z.string(),
  showsLogo: z.boolean(),
  /** Why not, in words (empty when the logo shows). */
  reasons: z.array(z.string()),
});
export type ProviderDisplay = z.infer<typeof ProviderDisplay>;

export const RecordChange = z.object({
  group: z.enum(RECORD_GROUPS),
  kind: z.enum(['added', 'removed', 'changed', 'status']),
  /** "DMARC record changed", "Certificate now expires in 12 days"… */
  title: z.string(),
  before: z.nullable(z.string()),
  after: z.nullable(z.string()),
});
export type RecordChange = z.infer<typeof RecordChange>;

export const MonitorSnapshot = z.object({
  checkedAt: z.string(),
  healthScore: z.int(),
  groups: z.array(RecordGroupReport),
  logo: LogoReport,
  certificate: CertificateCard,
  providers: z.array(ProviderDisplay),
  /** The issues worth fixing, worst first (at most 5). */
  topIssues: z.array(MonitorIssue),
  /** Since the run before; empty on the first. */
  changes: z.array(RecordChange),
  /** DKIM selectors found at common names. */
  dkimSelectors: z.array(z.string()),
});
export type MonitorSnapshot = z.infer<typeof MonitorSnapshot>;

export const HistoryPoint = z.object({
  at: z.string(),
  score: z.int(),
  /** How many record changes this run found. */
  changes: z.int(),
});
export type HistoryPoint = z.infer<typeof HistoryPoint>;

export const MonitorDetail = z.object({
  monitor: MonitorListItem,
  /** null until the first run finished. */
  latest: z.nullable(MonitorSnapshot),
  /** Oldest first, at most 90 points. */
  history: z.array(HistoryPoint),
});
export type MonitorDetail = z.infer<typeof MonitorDetail>;

// ---------------------------------------------------------------------------------------------
// The assistant (spec §3)

export const ASSISTANT_QUESTION_MAX = 1000;

export const ConversationEntry = z.object({
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  /** ISO time. */
  timestamp: z.string(),
});
export type ConversationEntry = z.infer<typeof ConversationEntry>;

/** Spec §3's assistant context, exactly; fullDomainData has its secret fields stripped. */
export const AssistantContext = z.object({
  domainName: z.string(),
  healthScore: z.nullable(z.int()),
  topIssues: z.array(MonitorIssue),
  initialQuestion: z.string(),
  autoSubmit: z.boolean(),
  fullDomainData: z.record(z.string(), z.unknown()),
  history: z.array(ConversationEntry),
});
export type AssistantContext = z.infer<typeof AssistantContext>;

export const AssistantRequest = z.object({
  question: z
    .string({ error: 'Please enter a question' })
    .check(z.trim(), z.minLength(1, 'Please enter a question'), lengthLimit(ASSISTANT_QUESTION_MAX, `A question is at most ${ASSISTANT_QUESTION_MAX} characters`)),
});
export type AssistantRequest = z.infer<typeof AssistantRequest>;

export const AssistantConversation = z.object({
  context: AssistantContext,
  entries: z.array(ConversationEntry),
});
export type AssistantConversation = z.infer<typeof AssistantConversation>;

/** Who answered: the configured model, or the built-in assistant that answers from the checks. */
export const ASSISTANT_SOURCES = ['model', 'built-in'] as const;

export const AssistantAnswer = z.object({
  question: ConversationEntry,
  answer: ConversationEntry,
  source: z.enum(ASSISTANT_SOURCES),
});
export type AssistantAnswer = z.infer<typeof AssistantAnswer>;

/** One line of the assistant's answer stream. */
export const AssistantStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('delta'), text: z.string() }),
  z.object({ type: z.literal('done'), question: ConversationEntry, answer: ConversationEntry, source: z.enum(ASSISTANT_SOURCES) }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type AssistantStreamEvent = z.infer<typeof AssistantStreamEvent>;
