import type { Check, DnsRecord } from './types';
import * as asn1js from 'asn1js';
import * as z from 'zod/mini';
import { fail, info, pass, scoreChecks, txtRecord, warn, type Inspection } from './checks';
import { describeLookupError, lookupTxt, type DnsResolver } from './dns';
import { isSelector, validateDomain } from './domain-name';
import { asText, readInput } from './input';
import { splitTxt } from './txt';
import { listWords, parseTagList, quote, type Tag } from './tag-list';

/** DKIM public key records (RFC 6376 §3.6.1) at `<selector>._domainkey.<domain>`; key sizes per RFC 8301, Ed25519 per RFC 8463. */

export type DkimKeyType = 'rsa' | 'ed25519';

/** Selectors the big mail providers and mail software use, tried when the user does not know theirs. */
export const COMMON_DKIM_SELECTORS = [
  'default', 'dkim', 'mail', 'google', 'selector1', 'selector2', 'k1', 'k2', 'k3', 's1', 's2', 's1024', 's2048',
  'smtp', 'email', 'key1', 'key2', 'dkim1', 'sig1', 'mandrill', 'mxvault', 'zoho', 'fm1', 'fm2', 'fm3', 'protonmail', 'pm',
] as const;

export const DKIM_MIN_RSA_BITS = 1024;
export const DKIM_RECOMMENDED_RSA_BITS = 2048;

const KNOWN_TAGS = new Set(['v', 'h', 'k', 'n', 'p', 's', 't']);
const RSA_OID = '1.2.840.113549.1.1.1';
const ED25519_OID = '1.3.101.112';

export type DkimKey =
  | { ok: true; type: DkimKeyType; bits: number; format: 'spki' | 'pkcs1' | 'raw' }
  | { ok: false; error: string };

/** Standard base64 (spaces allowed in DNS, RFC 6376 §3.6.1) to bytes; null when it is not base64. */
function decodeBase64(text: string): Uint8Array | null {
  const compact = text.replace(/\s+/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 === 1) return null;
  try {
    return Uint8Array.from(atob(compact), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const SUBJECT_PUBLIC_KEY_INFO = new asn1js.Sequence({
  value: [
    new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ name: 'algorithm' }), new asn1js.Any({ name: 'parameters', optional: true })] }),
    new asn1js.BitString({ name: 'publicKey' }),
  ],
});
const RSA_PUBLIC_KEY = new asn1js.Sequence({ value: [new asn1js.Integer({ name: 'modulus' }), new asn1js.Integer({ name: 'publicExponent' })] });

/** The bare 32-byte key inside an Ed25519 SubjectPublicKeyInfo (what `openssl pkey -pubout` writes). */
function ed25519FromSpki(der: Uint8Array): Uint8Array | null {
  const spki = asn1js.verifySchema(der, SUBJECT_PUBLIC_KEY_INFO);
  if (!spki.verified) return null;
  const result = spki.result as unknown as { algorithm: asn1js.ObjectIdentifier; publicKey: asn1js.BitString };
  const key = result.publicKey.valueBlock.valueHexView;
  return result.algorithm.valueBlock.toString() === ED25519_OID && key.length === 32 ? key : null;
}

function rsaModulusBits(der: Uint8Array): number | null {
  const parsed = asn1js.verifySchema(der, RSA_PUBLIC_KEY);
  if (!parsed.verified) return null;
  const modulus = (parsed.result as unknown as { modulus: asn1js.Integer }).modulus.valueBlock.valueHexView;
  let start = 0;
  while (start < modulus.length && modulus[start] === 0) start += 1;
  if (start === modulus.length) return null;
  return (modulus.length - start - 1) * 8 + (32 - Math.clz32(modulus[start] ?? 0));
}

/**
 * Reads a DKIM public key (the base64 of p=) and reports its type and size in bits: RSA as
 * SubjectPublicKeyInfo (what `openssl rsa -pubout` writes) or a bare RSAPublicKey, Ed25519 as
 * the raw 32 bytes RFC 8463 asks for. Never throws.
 */
export function readDkimKey(p: string, keyType: string = 'rsa'): DkimKey {
  const bytes = decodeBase64(asText(p));
  if (!bytes) return { ok: false, error: 'The key is not valid base64.' };
  if (keyType === 'ed25519') {
    if (bytes.length === 32) return { ok: true, type: 'ed25519', bits: 256, format: 'raw' };
    if (ed25519FromSpki(bytes)) {
      return { ok: false, error: 'This Ed25519 key is wrapped in a SubjectPublicKeyInfo structure; RFC 8463 asks for the bare 32-byte key, which verifiers expect.' };
    }
    return { ok: false, error: `An Ed25519 key is 32 bytes; this one is ${bytes.length}.` };
  }
  if (keyType !== 'rsa') return { ok: false, error: `Unknown key type k=${keyType}.` };
  const spki = asn1js.verifySchema(bytes, SUBJECT_PUBLIC_KEY_INFO);
  if (spki.verified) {
    const result = spki.result as unknown as { algorithm: asn1js.ObjectIdentifier; publicKey: asn1js.BitString };
    const algorithm = result.algorithm.valueBlock.toString();
    if (algorithm === ED25519_OID) return { ok: false, error: 'This is an Ed25519 key, but the record says k=rsa (the default).' };
    if (algorithm !== RSA_OID) return { ok: false, error: `The key's algorithm (${algorithm}) is not RSA.` };
    const bits = rsaModulusBits(result.publicKey.valueBlock.valueHexView);
    return bits === null ? { ok: false, error: 'The RSA key inside is malformed.' } : { ok: true, type: 'rsa', bits, format: 'spki' };
  }
  const bits = rsaModulusBits(bytes);
  if (bits !== null) return { ok: true, type: 'rsa', bits, format: 'pkcs1' };
  return { ok: false, error: 'The base64 does not decode to an RSA public key (SubjectPublicKeyInfo or RSAPublicKey).' };
}

export interface DkimRecord {
  text: string;
  tags: Tag[];
  version?: string;
  keyType: string;
  /** The p= value without spaces; '' means the key is revoked; undefined means no p= at all. */
  publicKey?: string;
  hashAlgorithms?: string[];
  serviceTypes?: string[];
  flags: string[];
  notes?: string;
  key?: DkimKey;
}

export interface DkimParse {
  /** Whether the text looks like a DKIM key record (has p= or starts with v=DKIM1). */
  isDkim: boolean;
  record: DkimRecord;
  checks: Check[];
}

const colonList = (value: string | undefined) => value?.split(':').map((item) => item.trim().toLowerCase()).filter((item) => item !== '');

/** Parses one DKIM key record and checks it, key size included. Never throws. */
export function parseDkim(text: string): DkimParse {
  const list = parseTagList(asText(text));
  const get = (name: string) => list.byName.get(name);
  const p = get('p');
  const record: DkimRecord = {
    text: asText(text),
    tags: list.tags,
    version: get('v'),
    keyType: (get('k') ?? 'rsa').toLowerCase(),
    publicKey: p?.replace(/\s+/g, ''),
    hashAlgorithms: colonList(get('h')),
    serviceTypes: colonList(get('s')),
    flags: colonList(get('t')) ?? [],
    notes: get('n'),
  };
  const isDkim = p !== undefined || (list.tags[0]?.name === 'v' && list.tags[0].value === 'DKIM1');
  const checks: Check[] = [];

  if (record.version !== undefined && (list.tags[0]?.name !== 'v' || record.version !== 'DKIM1')) {
    checks.push(fail('dkim.version', 'Wrong version tag', `v= must be the first tag and read DKIM1; here it is v=${record.version}${list.tags[0]?.name === 'v' ? '' : ', not first'} (RFC 6376 §3.6.1).`,
      'Start the record with v=DKIM1; or leave v= out.'));
  }
  if (list.malformed.length > 0) {
    checks.push(fail('dkim.syntax.malformed', 'Unreadable parts in the record', `${listWords(list.malformed.map((piece) => quote(piece, 30)))} ${list.malformed.length === 1 ? 'is' : 'are'} not tag=value pairs.`,
      'Write the record as tag=value pairs separated by semicolons, e.g. v=DKIM1; k=rsa; p=MIIBIjANBg…'));
  }
  if (list.duplicates.length > 0) {
    checks.push(fail('dkim.syntax.duplicate', 'A tag appears twice', `${listWords(list.duplicates)} appear${list.duplicates.length === 1 ? 's' : ''} more than once, which makes the record invalid (RFC 6376 §3.2).`, 'Keep one of each tag.'));
  }
  const unknown = [...new Set(list.tags.map((tag) => tag.name).filter((name) => !KNOWN_TAGS.has(name)))];
  if (unknown.length > 0) {
    checks.push(info('dkim.syntax.unknown', 'Unknown tags ignored', `${listWords(unknown)}: verifiers ignore tags they do not know.`));
  }

  if (record.keyType !== 'rsa' && record.keyType !== 'ed25519') {
    checks.push(fail('dkim.key.type', 'Unknown key type', `k=${record.keyType}: verifiers know rsa and ed25519.`, 'Set k=rsa (or k=ed25519 for an Ed25519 key).'));
  }
  if (record.publicKey === undefined) {
    checks.push(fail('dkim.key.missing', 'No public key (p=)', 'The record has no p= tag, so no signature can be verified with it.', 'Publish the public key from your mail provider or signing software as p=…'));
  } else if (record.publicKey === '') {
    checks.push(warn('dkim.key.revoked', 'Key revoked', 'p= is empty: this selector\'s key has been revoked and signatures made with it fail (RFC 6376 §3.6.1).',
      'If you still sign with this selector, publish its public key; otherwise remove the record once nothing uses it.'));
  } else if (record.keyType === 'rsa' || record.keyType === 'ed25519') {
    record.key = readDkimKey(record.publicKey, record.keyType);
    checks.push(...keyChecks(record.key));
  }

  if (record.flags.includes('y')) {
    checks.push(warn('dkim.testing', 'Testing mode (t=y)', 't=y tells verifiers the domain is testing DKIM, so many treat failures and passes alike.', 'Remove t=y once signing works.'));
  }
  if (record.hashAlgorithms && !record.hashAlgorithms.includes('sha256')) {
    checks.push(fail('dkim.hash', 'Only weak hash algorithms allowed', `h=${get('h')}: signatures must use sha256; sha1 must not be used (RFC 8301 §3.1).`, 'Remove h= or set h=sha256.'));
  }
  if (record.serviceTypes && !record.serviceTypes.includes('*') && !record.serviceTypes.includes('email')) {
    checks.push(fail('dkim.service', 'Key not for e-mail', `s=${get('s')} does not include email or *, so verifiers must not use it for mail.`, 'Remove s= or set s=email.'));
  }
  return { isDkim, record, checks };
}

function keyChecks(key: DkimKey): Check[] {
  if (!key.ok) return [fail('dkim.key.invalid', 'Public key unreadable', key.error, 'Copy the public key again from your mail provider or signing software; p= holds the base64 without the BEGIN/END lines.')];
  if (key.type === 'ed25519') return [pass('dkim.key.ed25519', 'Ed25519 key', 'An Ed25519 key (RFC 8463); sign with an RSA key too, as not every verifier knows Ed25519.')];
  if (key.bits < DKIM_MIN_RSA_BITS) {
    return [fail('dkim.key.size', 'RSA key too short', `The key is ${key.bits} bits; verifiers reject keys under ${DKIM_MIN_RSA_BITS} bits (RFC 8301 §3.2).`, `Generate a ${DKIM_RECOMMENDED_RSA_BITS}-bit key, publish it under a new selector and switch signing to it.`)];
  }
  if (key.bits < DKIM_RECOMMENDED_RSA_BITS) {
    return [warn('dkim.key.size', 'RSA key shorter than recommended', `The key is ${key.bits} bits; ${DKIM_RECOMMENDED_RSA_BITS} bits is the recommended size.`, `Generate a ${DKIM_RECOMMENDED_RSA_BITS}-bit key, publish it under a new selector and switch signing to it.`)];
  }
  return [pass('dkim.key.size', 'RSA key size', `The key is ${key.bits} bits.`)];
}

export interface DkimSelectorResult {
  selector: string;
  name: string;
  status: 'found' | 'none' | 'error';
  record?: DkimRecord;
  checks: Check[];
  score: number;
}

export interface DkimDetails {
  domain: string;
  /** The selectors looked up: the one given, or COMMON_DKIM_SELECTORS. */
  tried: string[];
  /** Selectors with a record (or a failed lookup), each with its own checks and score. */
  selectors: DkimSelectorResult[];
}

/**
 * Looks up DKIM keys of `domain`: the given selector, or every common selector in parallel, and
 * checks each record found. Never throws.
 *
 * Score: per selector `scoreChecks` with a ceiling of 0 for a missing, revoked or unreadable key
 * and 20 for RSA under 1024 bits; the inspection scores the given selector, or the best selector
 * found when searching (the key you sign with is the one that matters), 0 when none is found.
 */
export async function inspectDkim(domain: string, options: { selector?: string }, dns: DnsResolver): Promise<Inspection<DkimDetails>> {
  const valid = validateDomain(domain);
  if (!valid.ok) {
    return { records: [], checks: [fail('dkim.domain.invalid', 'Not a domain name', valid.error, 'Enter the domain in the From address, e.g. example.com.')], score: 0, details: { domain: asText(domain), tried: [], selectors: [] } };
  }
  const name = valid.domain;
  const given = options?.selector?.trim().toLowerCase();
  if (given !== undefined && given !== '' && !isSelector(given)) {
    return { records: [], checks: [fail('dkim.selector.invalid', 'Not a selector', `${quote(given, 40)} is not a DKIM selector: letters, digits, hyphens and underscores, in dot-separated parts.`,
      'Copy the s= value from the DKIM-Signature header of a message you sent.')], score: 0, details: { domain: name, tried: [], selectors: [] } };
  }
  const tried = given ? [given] : [...COMMON_DKIM_SELECTORS];
  const results = await Promise.all(tried.map((selector) => inspectSelector(name, selector, dns)));
  const records = results.flatMap((result) => result.records);
  const shown = given ? results.map((result) => result.selector) : results.map((result) => result.selector).filter((result) => result.status !== 'none');
  const checks = shown.flatMap((result) => result.checks.map((check) => (given ? check : { ...check, title: `${result.selector}: ${check.title}` })));
  const details = { domain: name, tried, selectors: shown };

  if (!given && !shown.some((result) => result.status === 'found')) {
    const failed = results.filter((result) => result.selector.status === 'error').length;
    checks.push(warn('dkim.selector.not-found', 'No DKIM key found under common selectors',
      `None of the ${tried.length} common selectors (${tried.slice(0, 6).join(', ')}, …) has a key at ${name}${failed ? `; ${failed} lookups failed` : ''}. Selectors cannot be listed, so yours may simply have another name.`,
      'Open a message you sent, find the DKIM-Signature header and enter its s= value as the selector.'));
    return { records, checks, score: 0, details };
  }
  const scores = shown.filter((result) => result.status === 'found').map((result) => result.score);
  const score = given ? (shown[0]?.score ?? 0) : Math.max(0, ...scores);
  return { records, checks, score, details };
}

async function inspectSelector(domain: string, selector: string, dns: DnsResolver): Promise<{ selector: DkimSelectorResult; records: DnsRecord[] }> {
  const name = `${selector}._domainkey.${domain}`;
  const answer = await lookupTxt(dns, name);
  if (answer.status === 'error') {
    const checks = [fail('dkim.lookup.error', 'DKIM lookup failed', describeLookupError(name, answer), 'Try again; if it keeps failing, check that the domain\'s name servers answer.')];
    return { selector: { selector, name, status: 'error', checks, score: 0 }, records: [] };
  }
  const texts = answer.status === 'found' ? answer.value.map((strings) => strings.join('')) : [];
  const records = answer.status === 'found' ? answer.value.map((strings) => txtRecord(name, strings)) : [];
  const parsed = texts.map(parseDkim).filter((result) => result.isDkim);
  if (parsed.length === 0) {
    const checks = [fail('dkim.record.missing', 'No DKIM key', `There is no DKIM key record at ${name}${texts.length ? ' (only other TXT records)' : ''}, so mail signed with selector ${selector} fails DKIM.`,
      'Publish the DKIM record your mail provider gives you at that name, or check the selector spelling (the s= of a DKIM-Signature header).')];
    return { selector: { selector, name, status: 'none', checks, score: 0 }, records };
  }
  if (parsed.length > 1) {
    const checks = [fail('dkim.record.multiple', 'Several DKIM keys at one selector', `${name} has ${parsed.length} DKIM records; verifiers may pick either, so signatures fail at random.`, 'Keep one key record per selector; use a new selector for a new key.')];
    return { selector: { selector, name, status: 'found', record: parsed[0]?.record, checks, score: 0 }, records };
  }
  const only = parsed[0] as DkimParse;
  const checks = [pass('dkim.record.found', 'DKIM key found', `A DKIM key record at ${name}.`), ...only.checks];
  const key = only.record.key;
  const unusable = only.record.publicKey === undefined || only.record.publicKey === '' || (key !== undefined && !key.ok);
  const ceiling = unusable ? 0 : key?.ok && key.type === 'rsa' && key.bits < DKIM_MIN_RSA_BITS ? 20 : 100;
  return { selector: { selector, name, status: 'found', record: only.record, checks, score: scoreChecks(checks, ceiling) }, records };
}

/** What the DKIM generator asks for; values are checked by buildDkimRecord, shapes by this schema. */
export const DkimRecordInput = z.object({
  domain: z.optional(z.string()),
  selector: z.string(),
  /** The public key: PEM (with BEGIN/END lines) or bare base64. */
  publicKey: z.string(),
  /** Checked against the key itself; detected when left out. */
  keyType: z.optional(z.enum(['rsa', 'ed25519'])),
  testing: z.optional(z.boolean()),
});
export type DkimRecordInput = z.infer<typeof DkimRecordInput>;

export interface BuiltDkimRecord {
  record: string;
  name: string;
  errors: string[];
  /** Not blocking: e.g. an RSA key under 2048 bits. */
  warnings: string[];
  key?: { type: DkimKeyType; bits: number };
  /** The record cut into strings of at most 255 bytes (a 2048-bit key needs two). */
  strings: string[];
}

/**
 * Builds the DKIM key record for a public key, validating the key. An Ed25519 key pasted as PEM
 * (SubjectPublicKeyInfo) is published as the bare 32 bytes RFC 8463 asks for. Never throws.
 */
export function buildDkimRecord(input: DkimRecordInput): BuiltDkimRecord {
  const read = readInput(DkimRecordInput, input);
  if (!read.ok) return { record: '', name: '', errors: read.errors, warnings: [], strings: [] };
  const source = read.data;
  const errors: string[] = [];
  const warnings: string[] = [];
  const selector = source.selector.trim().toLowerCase();
  if (!isSelector(selector)) errors.push('Enter a selector: letters, digits, hyphens and underscores, e.g. s1 or 2025a.');
  let name = `${selector}._domainkey`;
  if (source.domain !== undefined && source.domain.trim() !== '') {
    const valid = validateDomain(source.domain);
    if (valid.ok) name = `${selector}._domainkey.${valid.domain}`;
    else errors.push(valid.error);
  }
  const pem = source.publicKey;
  if (/-----BEGIN (?:ENCRYPTED )?PRIVATE KEY-----|-----BEGIN RSA PRIVATE KEY-----/.test(pem)) {
    return { record: '', name, errors: [...errors, 'This is a private key: never publish it. Paste the public key (BEGIN PUBLIC KEY).'], warnings, strings: [] };
  }
  let base64 = pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, '');
  let key: DkimKey = { ok: false, error: 'Paste the public key.' };
  if (base64 !== '') {
    const bytes = decodeBase64(base64);
    key = readDkimKey(base64, 'rsa');
    const ed25519 = bytes && (bytes.length === 32 ? bytes : ed25519FromSpki(bytes));
    if (!key.ok && ed25519) {
      base64 = toBase64(ed25519);
      key = { ok: true, type: 'ed25519', bits: 256, format: 'raw' };
    }
  }
  if (!key.ok) errors.push(key.error);
  else {
    if (source.keyType !== undefined && source.keyType !== key.type) errors.push(`The key is ${key.type === 'rsa' ? 'an RSA' : 'an Ed25519'} key, not ${source.keyType}.`);
    if (key.type === 'rsa' && key.bits < DKIM_MIN_RSA_BITS) errors.push(`The key is ${key.bits} bits; verifiers reject RSA keys under ${DKIM_MIN_RSA_BITS} bits. Generate a ${DKIM_RECOMMENDED_RSA_BITS}-bit key.`);
    else if (key.type === 'rsa' && key.bits < DKIM_RECOMMENDED_RSA_BITS) warnings.push(`The key is ${key.bits} bits; ${DKIM_RECOMMENDED_RSA_BITS} bits is recommended.`);
  }
  if (errors.length > 0 || !key.ok) return { record: '', name, errors, warnings, strings: [] };
  const record = ['v=DKIM1', `k=${key.type}`, ...(source.testing === true ? ['t=y'] : []), `p=${base64}`].join('; ');
  return { record, name, errors, warnings, key: { type: key.type, bits: key.bits }, strings: splitTxt(record) };
}
