import { addMonitorLink } from '@bimi/contracts/remote-modules';
import type { ToolAnswer } from '@bimi/contracts/tools';
import { normalizeDomainInput } from '@bimi/email-auth/domain-input';

/** One next step under an answer: where to go (or which field of the form to go back to), in words, and why. */
export type NextStep = { id: string; label: string; why: string } & (
  | {
      to: string;
      /** The bff's own file (the validation guide PDF): a plain link, not a route. */
      file?: boolean;
    }
  | {
      /** The form field (its name) to put the cursor back in, with what was typed kept. */
      focus: string;
    }
);

/** What the next steps follow from: the tool, the question and what it found (a tool's details add nothing here). */
export type Answered = Pick<ToolAnswer, 'tool' | 'query' | 'records' | 'checks' | 'verdict'>;

const VALIDATION_GUIDE = '/docs/Mark-Certificate-Validation-Guide.pdf';
const CERTIFICATE_PAGE = '/products/digicert-mark-certificates';
const GENERATORS = { dmarc: '/account/tools/dmarc-generator', spf: '/account/tools/spf-generator', dkim: '/account/tools/dkim-generator', bimi: '/account/tools/bimi-generator' } as const;

function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

function has(answer: Answered, id: string, status?: string): boolean {
  return answer.checks.some((check) => check.id === id && (status === undefined || check.status === status));
}

function hasPrefix(answer: Answered, prefix: string, statuses: readonly string[]): boolean {
  return answer.checks.some((check) => check.id.startsWith(prefix) && statuses.includes(check.status));
}

const BAD = ['fail', 'absent'] as const;

const POLICY_RANK = { none: 0, quarantine: 1, reject: 2 } as const;

/** The strongest p= among the DMARC records found (several: the one to keep when merging). */
function strongestPolicy(answer: Answered): 'none' | 'quarantine' | 'reject' {
  let best: 'none' | 'quarantine' | 'reject' = 'none';
  for (const record of answer.records) {
    if (!record.name.startsWith('_dmarc.')) continue;
    const p = /(?:^|;)\s*p\s*=\s*(none|quarantine|reject)\s*(?:;|$)/i.exec(record.value)?.[1]?.toLowerCase() as keyof typeof POLICY_RANK | undefined;
    if (p && POLICY_RANK[p] > POLICY_RANK[best]) best = p;
  }
  return best;
}

/** A name Add Monitor takes: letters, digits and inner hyphens, two labels or more (no underscore names). */
function isDomainName(name: string): boolean {
  return normalizeDomainInput(name).ok;
}

/**
 * What to do after an answer, most useful first: the generator for what is missing or wrong, with
 * the values prefilled; a mark certificate once the domain is ready for BIMI; a monitor to keep
 * watching it; the validation guide. Every answer about a domain that exists gets at least one.
 */
export function nextSteps(answer: Answered): NextStep[] {
  const { tool } = answer;
  const domain = answer.query.domain ?? answer.query.name?.replace(/^(_dmarc|[^.]+\._(bimi|domainkey))\./, '');
  const status = answer.verdict?.status;
  const steps: NextStep[] = [];
  if (status === 'nonexistent') {
    return [{ id: 'spelling', label: 'Check the spelling and try again', why: 'DNS has no such domain, so there is nothing to publish records for yet.', focus: 'domain' }];
  }
  const dmarcRecord = answer.records.find((record) => record.name.startsWith('_dmarc.'))?.value;
  const rua = /rua=([^;]+)/i.exec(dmarcRecord ?? '')?.[1]?.trim();
  const dmarcLink = (p: string) => withQuery(GENERATORS.dmarc, { domain, p, rua: rua ?? (domain ? `mailto:dmarc-reports@${domain}` : undefined) });
  const readyForBimi = has(answer, 'dmarc.bimi.ready', 'pass') || has(answer, 'bimi.dmarc.policy', 'pass');

  // A lookup that failed says nothing about the records: try again before changing any.
  if (status === 'unreachable') {
    return [
      {
        id: 'retry',
        label: 'Check again in a minute',
        why: 'A lookup or a download failed, so we cannot tell yet; nothing needs to change on your side for that.',
        focus: answer.query.domain !== undefined ? 'domain' : 'name',
      },
      { id: 'validation-guide', label: 'Read the validation guide', why: 'What the certificate authority checks, step by step (PDF).', to: VALIDATION_GUIDE, file: true },
    ];
  }
  // The policy a published record already has: a step never suggests a weaker one.
  const currentPolicy = /(?:^|;)\s*p\s*=\s*(none|quarantine|reject)\s*(?:;|$)/i.exec(dmarcRecord ?? '')?.[1]?.toLowerCase();
  const atLeast = (p: 'none' | 'quarantine') => (currentPolicy === 'reject' || (currentPolicy === 'quarantine' && p === 'none') ? currentPolicy : p);

  if (tool === 'dmarc') {
    if (has(answer, 'dmarc.record.multiple'))
      steps.push({
        id: 'dmarc-generator',
        label: 'Merge the DMARC records into one',
        why: 'Receivers apply none of several records: publish one TXT record with the strongest policy and delete the others.',
        to: dmarcLink(strongestPolicy(answer)),
      });
    else if (status === 'absent')
      steps.push({ id: 'dmarc-generator', label: 'Create a DMARC record', why: 'Start at p=none with reports, then move to enforcement.', to: dmarcLink('none') });
    else if (status === 'fail')
      steps.push({ id: 'dmarc-generator', label: 'Fix the DMARC record', why: 'Rebuild it with the generator: the failures below say what is wrong.', to: dmarcLink(atLeast('none')) });
    else if (has(answer, 'dmarc.policy.none'))
      steps.push({
        id: 'dmarc-generator',
        label: 'Move to enforcement: p=quarantine',
        why: 'Once reports show every sender passing, quarantine protects the domain and makes it ready for BIMI.',
        to: dmarcLink('quarantine'),
      });
    else if (!readyForBimi)
      steps.push({ id: 'dmarc-generator', label: 'Make the policy BIMI-ready', why: 'BIMI needs quarantine or reject on all mail.', to: dmarcLink(atLeast('quarantine')) });
    if (readyForBimi)
      steps.push({ id: 'bimi-generator', label: 'Create your BIMI record', why: 'Your DMARC policy is strict enough for a logo.', to: withQuery(GENERATORS.bimi, { domain }) });
  }
  if (tool === 'bimi') {
    if (has(answer, 'bimi.record.missing', 'absent'))
      steps.push({ id: 'bimi-generator', label: 'Create a BIMI record', why: 'Publish where your logo is, so mailboxes can show it.', to: withQuery(GENERATORS.bimi, { domain }) });
    if (hasPrefix(answer, 'bimi.dmarc.', BAD))
      steps.push({ id: 'dmarc-generator', label: 'Fix DMARC first', why: 'BIMI needs p=quarantine or p=reject on all mail.', to: dmarcLink(atLeast('quarantine')) });
  }
  if (tool === 'spf' && (status === 'absent' || status === 'fail'))
    steps.push({
      id: 'spf-generator',
      label: status === 'absent' ? 'Create an SPF record' : 'Build a correct SPF record',
      why: 'List the servers that send your mail and end with -all.',
      to: withQuery(GENERATORS.spf, { domain }),
    });
  if (tool === 'dkim' && (status === 'absent' || status === 'fail'))
    steps.push({
      id: 'dkim-generator',
      label: 'Generate a DKIM key',
      why: 'Or enter the selector of your mail provider (the s= of a DKIM-Signature header).',
      to: withQuery(GENERATORS.dkim, { domain }),
    });

  // A domain ready for BIMI without a certificate, or one whose certificate is wrong: the certificates.
  const needsCertificate =
    (tool === 'bimi' && readyForBimi && (has(answer, 'bimi.a.missing') || hasPrefix(answer, 'vmc.', BAD))) ||
    (tool === 'dmarc' && readyForBimi) ||
    (tool === 'vmc' && status !== 'pass' && status !== 'warn');
  if (needsCertificate) steps.push({ id: 'certificates', label: 'Get a mark certificate', why: 'Gmail and Apple Mail show your logo only with a VMC or CMC.', to: CERTIFICATE_PAGE });
  // Only a domain Add Monitor takes: the name as a domain (not _dmarc.… or a selector's name), which exists.
  if (domain && isDomainName(domain)) steps.push({ id: 'add-monitor', label: `Monitor ${domain}`, why: 'We check it daily and tell you when something breaks.', to: addMonitorLink(domain) });
  steps.push({ id: 'validation-guide', label: 'Read the validation guide', why: 'What the certificate authority checks, step by step (PDF).', to: VALIDATION_GUIDE, file: true });
  return steps;
}
