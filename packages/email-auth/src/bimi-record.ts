import type { Check } from './types';
import * as z from 'zod/mini';
import { absent, fail, info, pass, warn } from './checks';
import { isSelector, validateDomain } from './domain-name';
import { asText, readInput } from './input';
import { listWords, parseTagList, quote, type Tag } from './tag-list';
import { splitTxt } from './txt';

/**
 * BIMI assertion records (draft-brand-indicators-for-message-identification) at
 * `<selector>._bimi.<domain>`: v=BIMI1 first, l= the logo (HTTPS SVG), a= the evidence document
 * (a VMC/CMC in PEM over HTTPS), lps= local-part selectors, avp= avatar preference.
 */

export const DEFAULT_BIMI_SELECTOR = 'default';
const KNOWN_TAGS = new Set(['v', 'l', 'a', 'lps', 'avp']);
/**
 * A BIMI record names one logo; the addresses past this many in l= are not judged one by one (a
 * record of thousands, from a stranger's DNS, would cost the event loop a URL parse each).
 */
export const MAX_JUDGED_LOGOS = 16;

export interface BimiRecord {
  text: string;
  tags: Tag[];
  /** Logo URLs from l= (comma-separated in older drafts). */
  logos: string[];
  /** The evidence document URL from a=, if any. */
  evidence?: string;
  localParts?: string[];
  avatarPreference?: 'brand' | 'personal';
  /** v=BIMI1 with empty l= and a=: the domain asks receivers not to show any logo. */
  declined: boolean;
}

export interface BimiParse {
  isBimi: boolean;
  record: BimiRecord;
  checks: Check[];
}

/** Parsed with the platform's URL parser (browsers and Node): https only, with a host. */
function httpsUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.hostname !== '' ? url : null;
  } catch {
    return null;
  }
}

const commaList = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** Parses one BIMI assertion record and checks what the text alone shows. Never throws. */
export function parseBimi(text: string): BimiParse {
  const list = parseTagList(asText(text));
  const get = (name: string) => list.byName.get(name);
  const first = list.tags[0];
  const isBimi = first?.name === 'v' && first.value === 'BIMI1';
  const l = get('l');
  const a = get('a');
  const avp = get('avp')?.toLowerCase();
  const record: BimiRecord = {
    text: asText(text),
    tags: list.tags,
    logos: commaList(l),
    evidence: a === undefined || a === '' ? undefined : a,
    localParts: get('lps') === undefined ? undefined : commaList(get('lps')).map((part) => part.toLowerCase()),
    avatarPreference: avp === 'brand' || avp === 'personal' ? avp : undefined,
    declined: (l ?? '') === '' && (a ?? '') === '',
  };
  if (!isBimi) {
    const found = first ? `${first.name}=${first.value}` : quote(asText(text));
    return {
      isBimi,
      record,
      checks: [
        fail(
          'bimi.version',
          'Not a BIMI record',
          `A BIMI record must start with v=BIMI1; this one starts with ${found}, so receivers ignore it.`,
          'Start the record with v=BIMI1; e.g. v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.pem',
        ),
      ],
    };
  }
  const checks: Check[] = [];
  if (list.malformed.length > 0) {
    checks.push(
      fail(
        'bimi.syntax.malformed',
        'Unreadable parts in the record',
        `${listWords(list.malformed.map((piece) => quote(piece, 30)))} ${list.malformed.length === 1 ? 'is' : 'are'} not tag=value pairs.`,
        'Write the record as tag=value pairs separated by semicolons.',
      ),
    );
  }
  if (list.duplicates.length > 0) {
    checks.push(
      fail('bimi.syntax.duplicate', 'A tag appears twice', `${listWords(list.duplicates)} ${list.duplicates.length === 1 ? 'is' : 'are'} set more than once.`, 'Keep one of each tag.'),
    );
  }
  const unknown = [...new Set(list.tags.map((tag) => tag.name).filter((name) => !KNOWN_TAGS.has(name)))];
  if (unknown.length > 0) checks.push(info('bimi.syntax.unknown', 'Unknown tags ignored', `${listWords(unknown)}: receivers ignore tags they do not know.`));

  if (record.declined) {
    checks.push(
      absent(
        'bimi.declined',
        'BIMI declined',
        'l= and a= are empty: this record tells receivers to show no logo for the domain.',
        'To show your logo, set l= to the HTTPS address of your SVG logo and a= to your certificate.',
      ),
    );
    return { isBimi, record, checks };
  }

  if (l === undefined) {
    checks.push(
      fail('bimi.l.missing', 'No logo location (l=)', 'The record has no l= tag, so receivers do not know where the logo is.', 'Add l=https://… with the address of your SVG Tiny PS logo.'),
    );
  } else if (record.logos.length === 0) {
    checks.push(info('bimi.l.from-evidence', 'Logo taken from the certificate', 'l= is empty, so receivers use the logo embedded in the certificate named by a=.'));
  } else {
    if (record.logos.length > MAX_JUDGED_LOGOS) {
      checks.push(
        fail(
          'bimi.l.too-many',
          'Too many logo locations',
          `l= names ${record.logos.length} addresses; a BIMI record names one logo (the first ${MAX_JUDGED_LOGOS} are checked below).`,
          'Put the one https:// address of your SVG Tiny PS logo in l=.',
        ),
      );
    }
    const judged = record.logos.slice(0, MAX_JUDGED_LOGOS);
    const notHttps = judged.filter((logo) => !httpsUrl(logo));
    if (notHttps.length > 0) {
      checks.push(
        fail(
          'bimi.l.https',
          'Logo address is not HTTPS',
          `${listWords(notHttps.map((logo) => quote(logo, 60)))}: the logo must be served over https:// from a full address.`,
          'Host the logo on an HTTPS server and put its full https:// address in l=.',
        ),
      );
    } else {
      const notSvg = judged.filter((logo) => !(httpsUrl(logo)?.pathname.toLowerCase().endsWith('.svg') ?? false));
      checks.push(
        notSvg.length > 0
          ? warn(
              'bimi.l.svg',
              'Logo address does not end in .svg',
              `${listWords(notSvg.map((logo) => quote(logo, 60)))}: BIMI logos are SVG Tiny PS files; receivers may expect the .svg extension.`,
              'Serve the logo as an .svg file (SVG Tiny PS profile).',
            )
          : pass('bimi.l.valid', 'Logo location', `The logo is at ${listWords(judged)}.`),
      );
    }
  }

  if (record.evidence === undefined) {
    checks.push(
      warn(
        'bimi.a.missing',
        'No certificate (a=)',
        'Without a Verified Mark Certificate (VMC) or Common Mark Certificate (CMC), Gmail and Apple Mail do not show the logo; some other providers do.',
        'Get a VMC or CMC for your logo from a certificate authority and add a=https://…/certificate.pem',
      ),
    );
  } else if (record.evidence.toLowerCase() === 'self') {
    checks.push(
      warn(
        'bimi.a.self',
        'a=self is not a certificate',
        'a=self (from early drafts) means no evidence document, like leaving a= out.',
        'Point a= at your VMC or CMC in PEM format, or remove a=self.',
      ),
    );
  } else if (!httpsUrl(record.evidence)) {
    checks.push(
      fail(
        'bimi.a.https',
        'Certificate address is not HTTPS',
        `${quote(record.evidence, 60)}: the certificate must be served over https:// from a full address.`,
        'Put the full https:// address of your certificate (.pem) in a=.',
      ),
    );
  } else if (!httpsUrl(record.evidence)?.pathname.toLowerCase().endsWith('.pem')) {
    checks.push(
      warn(
        'bimi.a.pem',
        'Certificate address does not end in .pem',
        'The evidence document is a PEM file; receivers may expect the .pem extension.',
        'Serve the certificate as a .pem file.',
      ),
    );
  } else {
    checks.push(pass('bimi.a.valid', 'Certificate location', `The certificate is at ${record.evidence}.`));
  }

  const avpText = get('avp');
  if (avpText !== undefined && record.avatarPreference === undefined) {
    checks.push(fail('bimi.avp.invalid', 'Invalid avatar preference', `avp=${avpText} must be brand or personal.`, 'Set avp=brand (always show the logo) or avp=personal, or remove avp.'));
  }
  if (record.localParts !== undefined && (record.localParts.length === 0 || record.localParts.some((part) => /[\s@]/.test(part)))) {
    checks.push(
      fail(
        'bimi.lps.invalid',
        'Invalid local-part selectors',
        `lps=${get('lps')} must be a comma-separated list of address local parts (the part before @).`,
        'Write lps=marketing,news or remove lps.',
      ),
    );
  }
  return { isBimi, record, checks };
}

/** What the BIMI generator asks for; values are checked by buildBimiRecord, shapes by this schema. */
export const BimiRecordInput = z.object({
  domain: z.optional(z.string()),
  selector: z.optional(z.string()),
  /** HTTPS address of the SVG Tiny PS logo; empty together with `evidence` declines BIMI. */
  logo: z.optional(z.string()),
  /** HTTPS address of the VMC/CMC (.pem). */
  evidence: z.optional(z.string()),
  avatarPreference: z.optional(z.string()),
});
export type BimiRecordInput = z.infer<typeof BimiRecordInput>;

export interface BuiltBimiRecord {
  record: string;
  name: string;
  errors: string[];
  warnings: string[];
  strings: string[];
}

/** Builds a BIMI assertion record from the generator's fields, validating each. Never throws. */
export function buildBimiRecord(input: BimiRecordInput): BuiltBimiRecord {
  const read = readInput(BimiRecordInput, input);
  if (!read.ok) return { record: '', name: '', errors: read.errors, warnings: [], strings: [] };
  const source = read.data;
  const errors: string[] = [];
  const warnings: string[] = [];
  const selector = (source.selector ?? '').trim().toLowerCase() || DEFAULT_BIMI_SELECTOR;
  if (!isSelector(selector)) errors.push('A selector is letters, digits and hyphens, e.g. default or brand.');
  let name = `${selector}._bimi`;
  if (source.domain !== undefined && source.domain.trim() !== '') {
    const valid = validateDomain(source.domain);
    if (valid.ok) name = `${selector}._bimi.${valid.domain}`;
    else errors.push(valid.error);
  }
  const logo = (source.logo ?? '').trim();
  const evidence = (source.evidence ?? '').trim();
  if (logo !== '') {
    const url = httpsUrl(logo);
    if (!url) errors.push('The logo address must be a full https:// address.');
    else if (!url.pathname.toLowerCase().endsWith('.svg')) warnings.push('The logo should be an .svg file (SVG Tiny PS).');
  }
  if (evidence !== '') {
    const url = httpsUrl(evidence);
    if (!url) errors.push('The certificate address must be a full https:// address.');
    else if (!url.pathname.toLowerCase().endsWith('.pem')) warnings.push('The certificate should be a .pem file.');
  } else if (logo !== '') {
    warnings.push('Without a certificate (VMC or CMC), Gmail and Apple Mail do not show the logo.');
  }
  const avp = source.avatarPreference || undefined;
  if (avp !== undefined && avp !== 'brand' && avp !== 'personal') errors.push('The avatar preference is brand or personal.');
  if (errors.length > 0) return { record: '', name, errors, warnings, strings: [] };
  // Empty l= and a= is the declination record (the domain asks for no logo).
  const parts = ['v=BIMI1', `l=${logo}`, ...(evidence !== '' || logo === '' ? [`a=${evidence}`] : []), ...(avp ? [`avp=${avp}`] : [])];
  const record = `${parts.join('; ')};`;
  return { record, name, errors, warnings, strings: splitTxt(record) };
}
