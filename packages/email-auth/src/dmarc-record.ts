import type { Check } from './types';
import * as z from 'zod/mini';
import { fail, hygieneAsWarnings, info, pass, warn } from './checks';
import { validateDomain } from './domain-name';
import { asText, readInput } from './input';
import { listWords, parseTagList, quote, type Tag, type TagList } from './tag-list';

/**
 * DMARC record text (RFC 7489, with RFC 9989 "DMARCbis" where it differs: the np, psd and t tags, and pct, rf
 * and ri removed). Policy records live at `_dmarc.<domain>`; a domain without one falls back to
 * its organizational domain's record (RFC 7489 §6.6.3).
 */

export const DMARC_POLICIES = ['none', 'quarantine', 'reject'] as const;
export type DmarcPolicy = (typeof DMARC_POLICIES)[number];
export type Alignment = 'r' | 's';

/** Every tag either RFC defines; anything else is ignored by receivers (and likely a typo). */
const KNOWN_TAGS = new Set(['v', 'p', 'sp', 'np', 'pct', 'adkim', 'aspf', 'fo', 'rf', 'ri', 'rua', 'ruf', 'psd', 't']);
const POLICY_RANK: Record<DmarcPolicy, number> = { none: 0, quarantine: 1, reject: 2 };
const MAILTO_ADDRESS = z.email();

/** One report destination from rua/ruf: `mailto:addr[!size]`. */
export interface DmarcReportUri {
  uri: string;
  scheme: string;
  /** The address when the URI is a mailto: with a valid address. */
  address?: string;
  /** The address's domain, lower-cased. */
  domain?: string;
  /** The `!10m` size limit as written, if any. */
  maxSize?: string;
  valid: boolean;
}

export interface DmarcRecord {
  text: string;
  tags: Tag[];
  /** The policy as published, if it is one of the three values. */
  p?: DmarcPolicy;
  sp?: DmarcPolicy;
  np?: DmarcPolicy;
  /** 0–100 when valid; 100 when absent. */
  pct: number;
  adkim: Alignment;
  aspf: Alignment;
  fo: string[];
  rua: DmarcReportUri[];
  ruf: DmarcReportUri[];
  /** DMARCbis t=y: the policy is applied one level softer. */
  testing: boolean;
  psd?: 'y' | 'n' | 'u';
  /**
   * The policy a receiver applies when p= is missing or invalid (or sp= is invalid): RFC 7489
   * §6.6.3 treats the record as p=none only when rua= has a valid address, RFC 9989 always does.
   */
  fallback?: { rfc7489: 'none' | 'ignored'; rfc9989: 'none' };
}

export interface DmarcParse {
  /** Whether receivers treat the text as a DMARC record at all: it starts with v=DMARC1. */
  isDmarc: boolean;
  record: DmarcRecord;
  /** Findings about the text alone (syntax and policy); inspectDmarc adds the DNS ones. */
  checks: Check[];
}

function readPolicy(value: string | undefined): DmarcPolicy | undefined {
  const lower = value?.toLowerCase();
  return DMARC_POLICIES.find((policy) => policy === lower);
}

function parseReportUris(value: string | undefined): DmarcReportUri[] {
  if (value === undefined || value.trim() === '') return [];
  return value.split(',').map((piece) => {
    const uri = piece.trim();
    const colon = uri.indexOf(':');
    const scheme = colon < 0 ? '' : uri.slice(0, colon).toLowerCase();
    if (scheme !== 'mailto') return { uri, scheme, valid: false };
    // RFC 7489 §6.2: a `!` followed by a size with an optional k/m/g/t unit ends the URI.
    const match = /^(.*?)(?:!(\d+[kmgt]?))?$/i.exec(uri.slice(colon + 1));
    let address = match?.[1] ?? '';
    try {
      address = decodeURIComponent(address);
    } catch {
      return { uri, scheme, valid: false };
    }
    if (!MAILTO_ADDRESS.safeParse(address).success) return { uri, scheme, valid: false };
    const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
    return { uri, scheme, address, domain, maxSize: match?.[2], valid: true };
  });
}

/**
 * dmarc-version = "v" *WSP "=" *WSP %x44.4d.41.52.43.31: the tag name is case-insensitive (ABNF
 * literals are), the value DMARC1 is not, and it is the very first thing in the record (RFC 7489
 * §6.4, RFC 9989 §4.7): a record starting with a space is not a DMARC record.
 */
export const DMARC_VERSION = /^[vV][ \t]*=[ \t]*DMARC1[ \t]*(?:;|$)/;

export function isDmarcText(text: string): boolean {
  return DMARC_VERSION.test(text);
}

/** Tag names are case-insensitive (RFC 7489 §6.4): `P=reject` is p=reject. */
function lowerCaseNames(list: TagList): TagList {
  const tags = list.tags.map((tag) => ({ name: tag.name.toLowerCase(), value: tag.value }));
  const byName = new Map<string, string>();
  const duplicates = new Set<string>();
  for (const tag of tags) {
    if (byName.has(tag.name)) duplicates.add(tag.name);
    else byName.set(tag.name, tag.value);
  }
  return { tags, malformed: list.malformed, duplicates: [...duplicates], byName };
}

/** Parses one DMARC record. Never throws, whatever the text. */
export function parseDmarc(text: string): DmarcParse {
  const source = asText(text);
  const list = lowerCaseNames(parseTagList(source));
  const get = (name: string) => list.byName.get(name);
  const isDmarc = isDmarcText(source);
  const pctText = get('pct');
  const pct = pctText !== undefined && /^\d{1,3}$/.test(pctText) && Number(pctText) <= 100 ? Number(pctText) : 100;
  const record: DmarcRecord = {
    text: source,
    tags: list.tags,
    p: readPolicy(get('p')),
    sp: readPolicy(get('sp')),
    np: readPolicy(get('np')),
    pct,
    adkim: get('adkim')?.toLowerCase() === 's' ? 's' : 'r',
    aspf: get('aspf')?.toLowerCase() === 's' ? 's' : 'r',
    fo: (get('fo') ?? '0').split(':').map((option) => option.trim().toLowerCase()),
    rua: parseReportUris(get('rua')),
    ruf: parseReportUris(get('ruf')),
    testing: get('t')?.toLowerCase() === 'y',
    psd: (['y', 'n', 'u'] as const).find((flag) => flag === get('psd')?.toLowerCase()),
  };
  if (record.p === undefined || (get('sp') !== undefined && record.sp === undefined)) {
    record.fallback = { rfc7489: record.rua.some((uri) => uri.valid) ? 'none' : 'ignored', rfc9989: 'none' };
  }
  return { isDmarc, record, checks: isDmarc ? hygieneAsWarnings(validateDmarcTags(list, record)) : [versionCheck(record.text, list.tags[0])] };
}

/** The failure for text that is not a DMARC record because it does not start with v=DMARC1. */
export function versionCheck(text: string, first: Tag | undefined): Check {
  if (/^\s+v\s*=\s*DMARC1/i.test(text)) {
    return fail(
      'dmarc.version',
      'Record starts with a space',
      `The record reads ${quote(text, 40)}: a DMARC record must start with v=DMARC1 as its very first characters, so receivers do not recognize this one (RFC 7489 §6.4).`,
      'Remove the spaces before v=DMARC1.',
    );
  }
  if (first?.name.toLowerCase() === 'v' && /^DMARC1\s/.test(first.value)) {
    return fail(
      'dmarc.version',
      'Missing semicolon after v=DMARC1',
      `The record reads ${quote(text, 40)}: without a semicolon after v=DMARC1, receivers do not recognize it.`,
      'Separate every tag with a semicolon: v=DMARC1; p=none; rua=mailto:dmarc@example.com',
    );
  }
  const found = first ? `${first.name}=${first.value}` : quote(text);
  return fail(
    'dmarc.version',
    'Not a DMARC record',
    `A DMARC record must start with v=DMARC1; this one starts with ${found}, so receivers ignore it (RFC 7489 §6.6.3).`,
    'Put v=DMARC1; first, with DMARC1 in capitals, for example: v=DMARC1; p=none; rua=mailto:dmarc@example.com',
  );
}

function validateDmarcTags(list: ReturnType<typeof parseTagList>, record: DmarcRecord): Check[] {
  const checks: Check[] = [];
  const get = (name: string) => list.byName.get(name);

  if (list.malformed.length > 0) {
    checks.push(
      fail(
        'dmarc.syntax.malformed',
        'Unreadable parts in the record',
        `${listWords(list.malformed.map((piece) => quote(piece, 30)))} ${list.malformed.length === 1 ? 'is' : 'are'} not tag=value pairs.`,
        'Write every setting as tag=value and separate settings with semicolons, e.g. p=reject; rua=mailto:dmarc@example.com',
      ),
    );
  }
  if (list.duplicates.length > 0) {
    checks.push(
      fail(
        'dmarc.syntax.duplicate',
        'A tag appears twice',
        `${listWords(list.duplicates)} ${list.duplicates.length === 1 ? 'is' : 'are'} set more than once; receivers may reject the whole record.`,
        'Keep one of each tag and delete the repeated ones.',
      ),
    );
  }
  const unknown = [...new Set(list.tags.map((tag) => tag.name).filter((name) => !KNOWN_TAGS.has(name)))];
  if (unknown.length > 0) {
    checks.push(
      warn(
        'dmarc.syntax.unknown',
        'Unknown tags',
        `${listWords(unknown)} ${unknown.length === 1 ? 'is not a DMARC tag' : 'are not DMARC tags'}; receivers ignore ${unknown.length === 1 ? 'it' : 'them'}.`,
        'Remove the unknown tags, or fix their spelling (DMARC tags: p, sp, np, adkim, aspf, fo, rua, ruf, t, psd).',
      ),
    );
  }

  checks.push(...policyChecks(get('p'), record));
  checks.push(...subdomainPolicyChecks(get('sp'), get('np'), record));
  checks.push(...pctChecks(get('pct')));

  const testing = get('t');
  if (testing !== undefined) {
    if (!/^[yn]$/i.test(testing)) {
      checks.push(fail('dmarc.t.invalid', 'Invalid testing flag', `t=${testing} must be y or n (RFC 9989).`, 'Set t=n, or remove the tag, once you are ready to enforce the policy.'));
    } else if (record.testing) {
      checks.push(
        warn(
          'dmarc.t.testing',
          'Policy in testing mode',
          't=y asks receivers to apply the policy one step softer (reject as quarantine, quarantine as none) (RFC 9989).',
          'Remove t=y once your reports show all your mail passes DMARC.',
        ),
      );
    }
  }
  const psd = get('psd');
  if (psd !== undefined && record.psd === undefined) {
    checks.push(fail('dmarc.psd.invalid', 'Invalid psd flag', `psd=${psd} must be y, n or u (RFC 9989).`, 'Remove the psd tag; only public suffix operators set psd=y.'));
  }

  for (const tag of ['adkim', 'aspf'] as const) {
    const value = get(tag);
    const what = tag === 'adkim' ? 'DKIM' : 'SPF';
    if (value === undefined) continue;
    if (!/^[rs]$/i.test(value)) {
      checks.push(
        fail(`dmarc.${tag}.invalid`, `Invalid ${what} alignment`, `${tag}=${value} must be r (relaxed) or s (strict).`, `Set ${tag}=r, or remove the tag (relaxed is the default).`),
      );
    } else if (value.toLowerCase() === 's') {
      checks.push(
        info(`dmarc.${tag}.strict`, `Strict ${what} alignment`, `${tag}=s requires the ${what} domain to equal the From domain exactly; mail signed or sent from a subdomain fails DMARC.`),
      );
    }
  }

  const fo = get('fo');
  if (fo !== undefined) {
    const bad = record.fo.filter((option) => !['0', '1', 'd', 's'].includes(option));
    if (bad.length > 0) {
      checks.push(
        fail(
          'dmarc.fo.invalid',
          'Invalid failure reporting options',
          `fo=${quote(fo, 30)}: ${listWords(bad.map((option) => quote(option, 10)))} ${bad.length === 1 ? 'is' : 'are'} not one of 0, 1, d, s.`,
          'Use fo=1 (report any failure) or fo=0, options separated by colons.',
        ),
      );
    } else if (record.ruf.length === 0) {
      checks.push(info('dmarc.fo.unused', 'Failure options without failure reports', 'fo only matters when ruf= names where failure reports go.'));
    }
  }
  for (const tag of ['rf', 'ri'] as const) {
    const value = get(tag);
    if (value === undefined) continue;
    // An invalid value is a mistake in the record, as checkdmarc says: a warning, whatever RFC 9989 removed.
    const validValue = tag === 'rf' ? value.split(':').every((format) => /^(afrf|iodef)$/i.test(format.trim())) : /^\d{1,10}$/.test(value);
    if (!validValue) {
      checks.push(
        warn(
          `dmarc.${tag}.invalid`,
          `Invalid ${tag} value`,
          `${tag}=${quote(value, 40)} is not ${tag === 'rf' ? 'afrf or iodef' : 'a number of seconds'} (RFC 7489 §6.3); RFC 9989 removed the ${tag} tag, so receivers ignore it.`,
          `Remove ${tag}=${quote(value, 40)}.`,
        ),
      );
      continue;
    }
    checks.push(
      info(
        `dmarc.${tag}.obsolete`,
        `${tag} is obsolete`,
        `${tag}=${value}: RFC 9989 removed the ${tag} tag (${tag === 'rf' ? 'failure reports have one format' : 'aggregate reports are sent daily'}); receivers ignore it, whatever its value.`,
        `Remove ${tag}=${value}; it does nothing.`,
      ),
    );
  }

  checks.push(...reportUriChecks('rua', get('rua'), record.rua));
  checks.push(...reportUriChecks('ruf', get('ruf'), record.ruf));
  return checks;
}

function policyChecks(value: string | undefined, record: DmarcRecord): Check[] {
  if (record.p === undefined) {
    const what = value === undefined ? 'The record has no p= tag' : `p=${value} is not none, quarantine or reject`;
    const fix = value === undefined ? 'Add p=none to start monitoring, then move to p=quarantine and p=reject.' : 'Set p to none, quarantine or reject.';
    const id = value === undefined ? 'dmarc.policy.missing' : 'dmarc.policy.invalid';
    return [
      record.fallback?.rfc7489 === 'none'
        ? warn(
            id,
            'No valid policy: treated as p=none',
            `${what}. Because rua= has a valid address, receivers act as if the record said p=none (RFC 7489 §6.6.3, RFC 9989): reports are sent, nothing is enforced.`,
            fix,
          )
        : fail(
            id,
            value === undefined ? 'No policy (p=)' : 'Invalid policy',
            `${what}, and rua= has no valid address: receivers that follow RFC 7489 ignore the whole record (§6.6.3); those that follow RFC 9989 treat it as p=none.`,
            fix,
          ),
    ];
  }
  if (record.p === 'none') {
    return [
      warn(
        'dmarc.policy.none',
        'Policy is none (monitoring only)',
        'p=none asks receivers to deliver mail that fails DMARC as usual: it protects nothing, and BIMI logos are not shown.',
        'Once aggregate reports show your own mail passes, change to p=quarantine, then p=reject.',
      ),
    ];
  }
  return [
    pass(
      `dmarc.policy.${record.p}`,
      `Policy is ${record.p}`,
      record.p === 'reject'
        ? 'p=reject asks receivers to refuse mail that fails DMARC: the strongest protection.'
        : 'p=quarantine asks receivers to treat mail that fails DMARC as suspicious (usually the spam folder).',
    ),
  ];
}

function subdomainPolicyChecks(sp: string | undefined, np: string | undefined, record: DmarcRecord): Check[] {
  const checks: Check[] = [];
  if (sp !== undefined) {
    if (record.sp === undefined) {
      checks.push(
        fail(
          'dmarc.sp.invalid',
          'Invalid subdomain policy',
          `sp=${sp} is not none, quarantine or reject; an invalid sp= makes receivers treat the whole record as p=none${record.rua.some((uri) => uri.valid) ? '' : ' (RFC 9989), or ignore it when rua= has no valid address (RFC 7489 §6.6.3)'}.`,
          'Set sp to none, quarantine or reject, or remove it so subdomains follow p=.',
        ),
      );
    } else if (record.p && POLICY_RANK[record.sp] < POLICY_RANK[record.p]) {
      checks.push(
        warn(
          record.sp === 'none' ? 'dmarc.sp.none' : 'dmarc.sp.weaker',
          'Subdomains are less protected',
          `sp=${record.sp} lets mail from subdomains through more easily than p=${record.p}; attackers can send as any.subdomain.`,
          `Remove sp= so subdomains follow p=${record.p}, or set sp=${record.p}.`,
        ),
      );
    } else {
      checks.push(pass('dmarc.sp.valid', 'Subdomain policy', `Subdomains get sp=${record.sp}.`));
    }
  }
  if (np !== undefined) {
    const parent = record.sp ?? record.p;
    if (record.np === undefined) {
      checks.push(fail('dmarc.np.invalid', 'Invalid non-existent subdomain policy', `np=${np} is not none, quarantine or reject (RFC 9989).`, 'Set np=reject, or remove it.'));
    } else if (parent && POLICY_RANK[record.np] < POLICY_RANK[parent]) {
      checks.push(
        warn(
          'dmarc.np.weaker',
          'Non-existent subdomains are less protected',
          `np=${record.np} is softer than the ${record.sp ? 'subdomain' : 'domain'} policy ${parent} for names that do not even exist.`,
          'Set np=reject: nobody sends real mail from a subdomain that does not exist.',
        ),
      );
    } else {
      checks.push(pass('dmarc.np.valid', 'Non-existent subdomain policy', `Mail from subdomains that do not exist gets np=${record.np}.`));
    }
  }
  return checks;
}

/** pct: RFC 7489 applies a valid pct below 100 to part of the mail; RFC 9989 removed the tag (t=y instead). */
function pctChecks(value: string | undefined): Check[] {
  if (value === undefined) return [];
  if (/^\d{1,3}$/.test(value) && Number(value) < 100) {
    return [
      warn(
        'dmarc.pct.partial',
        'Policy applied to part of the mail',
        `pct=${value}: receivers that follow RFC 7489 apply the policy to ${Number(value)}% of failing mail only; those that follow RFC 9989 ignore pct and apply it to all.`,
        'Remove pct once reports look clean (use t=y while testing).',
      ),
    ];
  }
  if (!(/^\d{1,3}$/.test(value) && Number(value) <= 100)) {
    // An invalid value is a mistake in the record (checkdmarc warns), not only an obsolete tag.
    return [
      warn(
        'dmarc.pct.invalid',
        'Invalid pct value',
        `pct=${quote(value, 40)} is not a whole number from 0 to 100, so receivers ignore it and apply the policy to all mail; RFC 9989 removed the pct tag.`,
        'Remove pct; use t=y to test a policy.',
      ),
    ];
  }
  return [info('dmarc.pct.obsolete', 'pct is obsolete', `pct=${value}: RFC 9989 removed the pct tag.`, 'Remove pct; use t=y to test a policy.')];
}

function reportUriChecks(tag: 'rua' | 'ruf', value: string | undefined, uris: DmarcReportUri[]): Check[] {
  const kind = tag === 'rua' ? 'aggregate' : 'failure';
  if (value === undefined || uris.length === 0) {
    return tag === 'rua'
      ? [
          warn(
            'dmarc.rua.missing',
            'No aggregate reports',
            'Without rua= nobody sends you reports, so you cannot see who sends mail as your domain before tightening the policy.',
            'Add rua=mailto: with an address that collects DMARC reports, e.g. rua=mailto:dmarc-reports@example.com',
          ),
        ]
      : [];
  }
  const checks: Check[] = [];
  const notMailto = uris.filter((uri) => uri.scheme !== 'mailto');
  if (notMailto.length > 0) {
    checks.push(
      fail(
        `dmarc.${tag}.scheme`,
        `${kind === 'aggregate' ? 'Aggregate' : 'Failure'} report address is not mailto:`,
        `${listWords(notMailto.map((uri) => quote(uri.uri, 40)))}: reports are sent by e-mail only (RFC 9989), so each address must start with mailto:.`,
        `Write ${tag}=mailto:reports@example.com; separate several with commas.`,
      ),
    );
  }
  const badAddress = uris.filter((uri) => uri.scheme === 'mailto' && !uri.valid);
  if (badAddress.length > 0) {
    checks.push(
      fail(
        `dmarc.${tag}.address`,
        'Invalid report address',
        `${listWords(badAddress.map((uri) => quote(uri.uri, 40)))} ${badAddress.length === 1 ? 'is not a valid e-mail address' : 'are not valid e-mail addresses'}.`,
        `Fix the address after mailto:, e.g. ${tag}=mailto:dmarc@example.com`,
      ),
    );
  }
  const valid = uris.filter((uri) => uri.valid);
  if (valid.length > 0) {
    checks.push(
      pass(
        `dmarc.${tag}.valid`,
        `${kind === 'aggregate' ? 'Aggregate' : 'Failure'} reports`,
        `${kind === 'aggregate' ? 'Aggregate' : 'Failure'} reports go to ${listWords(valid.map((uri) => uri.address ?? uri.uri))}.`,
      ),
    );
  }
  return checks;
}

export interface BimiReadiness {
  ready: boolean;
  checks: Check[];
}

/**
 * What BIMI requires of DMARC (draft-brand-indicators-for-message-identification §4.2 and the
 * BIMI Group's guidance): an enforced policy (quarantine or reject) on all mail (pct=100, not in
 * testing), and subdomains not exempted with sp=none. `forSubdomain` says the record is the
 * organizational domain's, applied to a subdomain, so its sp= is the policy that counts.
 */
export function checkBimiReadiness(dmarc: DmarcRecord | null, options: { forSubdomain?: boolean } = {}): BimiReadiness {
  if (!dmarc) {
    return {
      ready: false,
      checks: [
        fail(
          'bimi.dmarc.missing',
          'No DMARC record',
          'BIMI needs a DMARC policy of quarantine or reject; this domain has no DMARC record.',
          'Publish a DMARC record with p=quarantine or p=reject (start with p=none to collect reports first).',
        ),
      ],
    };
  }
  const checks: Check[] = [];
  const policy = options.forSubdomain ? (dmarc.sp ?? dmarc.p) : dmarc.p;
  if (policy === 'quarantine' || policy === 'reject') {
    checks.push(pass('bimi.dmarc.policy', 'DMARC policy is enforced', `The DMARC policy that applies is ${policy}.`));
  } else {
    checks.push(
      fail(
        'bimi.dmarc.policy',
        'DMARC policy is not enforced',
        `BIMI needs p=quarantine or p=reject; the policy that applies is ${policy ?? 'missing'}.`,
        options.forSubdomain ? 'Set sp=quarantine or sp=reject (or remove sp) in the DMARC record.' : 'Change the DMARC record to p=quarantine or p=reject.',
      ),
    );
  }
  if (dmarc.pct < 100) {
    checks.push(fail('bimi.dmarc.pct', 'DMARC applies to part of the mail', `pct=${dmarc.pct}: BIMI needs the policy on all mail (pct=100).`, 'Remove pct or set pct=100.'));
  }
  if (dmarc.testing) {
    checks.push(fail('bimi.dmarc.testing', 'DMARC in testing mode', 't=y softens the policy; BIMI needs it enforced.', 'Remove t=y.'));
  }
  if (!options.forSubdomain && dmarc.sp === 'none') {
    checks.push(fail('bimi.dmarc.sp', 'Subdomains are exempted', 'sp=none: BIMI needs subdomains protected too.', 'Remove sp=none, or set sp=quarantine or sp=reject.'));
  }
  return { ready: checks.every((check) => check.status === 'pass'), checks };
}

/** What the DMARC generator asks for; values are checked by buildDmarcRecord, shapes by this schema. */
export const DmarcRecordInput = z.object({
  domain: z.optional(z.string()),
  p: z.string(),
  sp: z.optional(z.string()),
  np: z.optional(z.string()),
  pct: z.optional(z.number()),
  rua: z.optional(z.array(z.string())),
  ruf: z.optional(z.array(z.string())),
  adkim: z.optional(z.string()),
  aspf: z.optional(z.string()),
  fo: z.optional(z.array(z.string())),
  testing: z.optional(z.boolean()),
});
export type DmarcRecordInput = z.infer<typeof DmarcRecordInput>;

export interface BuiltRecord {
  /** The TXT value to publish, empty when there are errors. */
  record: string;
  /** The owner name to publish it at (relative `_dmarc` when no domain was given). */
  name: string;
  /** Plain-words problems with the input; empty means publishable. */
  errors: string[];
}

/** Builds a DMARC record from the generator's fields, validating each. Never throws. */
export function buildDmarcRecord(input: DmarcRecordInput): BuiltRecord {
  const read = readInput(DmarcRecordInput, input);
  if (!read.ok) return { record: '', name: '_dmarc', errors: read.errors };
  const source = read.data;
  const errors: string[] = [];
  let name = '_dmarc';
  if (source.domain !== undefined && source.domain.trim() !== '') {
    const valid = validateDomain(source.domain);
    if (valid.ok) name = `_dmarc.${valid.domain}`;
    else errors.push(valid.error);
  }
  const parts = ['v=DMARC1'];
  const policyTag = (tag: 'p' | 'sp' | 'np', value: string | undefined, required: boolean) => {
    if (value === undefined || value === '') {
      if (required) errors.push('Choose a policy: none, quarantine or reject.');
      return;
    }
    const policy = readPolicy(value);
    if (policy) parts.push(`${tag}=${policy}`);
    else errors.push(`${tag} must be none, quarantine or reject.`);
  };
  policyTag('p', source.p, true);
  policyTag('sp', source.sp, false);
  policyTag('np', source.np, false);
  if (source.pct !== undefined && source.pct !== 100) {
    if (Number.isInteger(source.pct) && source.pct >= 0 && source.pct <= 100) parts.push(`pct=${source.pct}`);
    else errors.push('The percentage must be a whole number from 0 to 100.');
  }
  for (const tag of ['adkim', 'aspf'] as const) {
    const value = source[tag];
    if (value === undefined || value === '' || value === 'r') continue;
    if (value === 's') parts.push(`${tag}=s`);
    else errors.push(`${tag} must be r (relaxed) or s (strict).`);
  }
  if (source.testing === true) parts.push('t=y');
  for (const tag of ['rua', 'ruf'] as const) {
    const uris: string[] = [];
    for (const entry of source[tag] ?? []) {
      const address = entry.trim().replace(/^mailto:/i, '');
      if (address === '') continue;
      if (MAILTO_ADDRESS.safeParse(address).success) uris.push(`mailto:${address}`);
      else errors.push(`${quote(address, 40)} is not a valid e-mail address for ${tag}.`);
    }
    if (uris.length > 0) parts.push(`${tag}=${uris.join(',')}`);
  }
  if (source.fo && source.fo.length > 0) {
    const options = source.fo.map((option) => option.trim().toLowerCase());
    const bad = options.filter((option) => !['0', '1', 'd', 's'].includes(option));
    if (bad.length > 0) errors.push('Failure reporting options are 0, 1, d and s.');
    else if (!(options.length === 1 && options[0] === '0')) parts.push(`fo=${[...new Set(options)].join(':')}`);
  }
  return { record: errors.length > 0 ? '' : parts.join('; '), name, errors };
}
