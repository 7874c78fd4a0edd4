import * as asn1js from 'asn1js';
import { fail, info, pass, warn } from './checks';
import { asText } from './input';
import { listWords, parseTagList, quote, type Tag } from './tag-list';
import type { Check } from './types';

/** DKIM public key records (RFC 6376 §3.6.1) at `<selector>._domainkey.<domain>`; key sizes per RFC 8301, Ed25519 per RFC 8463. */

export type DkimKeyType = 'rsa' | 'ed25519';

/** Selectors the big mail providers and mail software use, tried when the user does not know theirs. */
export const COMMON_DKIM_SELECTORS = [
  'default',
  'dkim',
  'mail',
  'google',
  'selector1',
  'selector2',
  'k1',
  'k2',
  'k3',
  's1',
  's2',
  's1024',
  's2048',
  'smtp',
  'email',
  'key1',
  'key2',
  'dkim1',
  'sig1',
  'mandrill',
  'mxvault',
  'zoho',
  'fm1',
  'fm2',
  'fm3',
  'protonmail',
  'pm',
] as const;

export const DKIM_MIN_RSA_BITS = 1024;
export const DKIM_RECOMMENDED_RSA_BITS = 2048;

const KNOWN_TAGS = new Set(['v', 'h', 'k', 'n', 'p', 's', 't']);
const RSA_OID = '1.2.840.113549.1.1.1';
const ED25519_OID = '1.3.101.112';

export type DkimKey = { ok: true; type: DkimKeyType; bits: number; format: 'spki' | 'pkcs1' | 'raw' } | { ok: false; error: string };

/** Standard base64 (spaces allowed in DNS, RFC 6376 §3.6.1) to bytes; null when it is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  const compact = text.replace(/\s+/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 === 1) return null;
  try {
    return Uint8Array.from(atob(compact), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

export function toBase64(bytes: Uint8Array): string {
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
export function ed25519FromSpki(der: Uint8Array): Uint8Array | null {
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

const colonList = (value: string | undefined) =>
  value
    ?.split(':')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '');

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
    checks.push(
      fail(
        'dkim.version',
        'Wrong version tag',
        `v= must be the first tag and read DKIM1; here it is v=${record.version}${list.tags[0]?.name === 'v' ? '' : ', not first'} (RFC 6376 §3.6.1).`,
        'Start the record with v=DKIM1; or leave v= out.',
      ),
    );
  }
  if (list.malformed.length > 0) {
    checks.push(
      fail(
        'dkim.syntax.malformed',
        'Unreadable parts in the record',
        `${listWords(list.malformed.map((piece) => quote(piece, 30)))} ${list.malformed.length === 1 ? 'is' : 'are'} not tag=value pairs.`,
        'Write the record as tag=value pairs separated by semicolons, e.g. v=DKIM1; k=rsa; p=MIIBIjANBg…',
      ),
    );
  }
  if (list.duplicates.length > 0) {
    checks.push(
      fail(
        'dkim.syntax.duplicate',
        'A tag appears twice',
        `${listWords(list.duplicates)} appear${list.duplicates.length === 1 ? 's' : ''} more than once, which makes the record invalid (RFC 6376 §3.2).`,
        'Keep one of each tag.',
      ),
    );
  }
  const unknown = [...new Set(list.tags.map((tag) => tag.name).filter((name) => !KNOWN_TAGS.has(name)))];
  if (unknown.length > 0) {
    checks.push(info('dkim.syntax.unknown', 'Unknown tags ignored', `${listWords(unknown)}: verifiers ignore tags they do not know.`));
  }

  if (record.keyType !== 'rsa' && record.keyType !== 'ed25519') {
    checks.push(fail('dkim.key.type', 'Unknown key type', `k=${record.keyType}: verifiers know rsa and ed25519.`, 'Set k=rsa (or k=ed25519 for an Ed25519 key).'));
  }
  if (record.publicKey === undefined) {
    checks.push(
      fail(
        'dkim.key.missing',
        'No public key (p=)',
        'The record has no p= tag, so no signature can be verified with it.',
        'Publish the public key from your mail provider or signing software as p=…',
      ),
    );
  } else if (record.publicKey === '') {
    checks.push(
      fail(
        'dkim.key.revoked',
        'Key revoked',
        "p= is empty: this selector's key has been revoked and signatures made with it fail (RFC 6376 §3.6.1).",
        'If you still sign with this selector, publish its public key; otherwise remove the record once nothing uses it.',
      ),
    );
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
  if (!key.ok)
    return [
      fail('dkim.key.invalid', 'Public key unreadable', key.error, 'Copy the public key again from your mail provider or signing software; p= holds the base64 without the BEGIN/END lines.'),
    ];
  if (key.type === 'ed25519') return [pass('dkim.key.ed25519', 'Ed25519 key', 'An Ed25519 key (RFC 8463); sign with an RSA key too, as not every verifier knows Ed25519.')];
  if (key.bits < DKIM_MIN_RSA_BITS) {
    return [
      fail(
        'dkim.key.size',
        'RSA key too short',
        `The key is ${key.bits} bits; verifiers reject keys under ${DKIM_MIN_RSA_BITS} bits (RFC 8301 §3.2).`,
        `Generate a ${DKIM_RECOMMENDED_RSA_BITS}-bit key, publish it under a new selector and switch signing to it.`,
      ),
    ];
  }
  if (key.bits < DKIM_RECOMMENDED_RSA_BITS) {
    return [
      warn(
        'dkim.key.size',
        'RSA key shorter than recommended',
        `The key is ${key.bits} bits; ${DKIM_RECOMMENDED_RSA_BITS} bits is the recommended size.`,
        `Generate a ${DKIM_RECOMMENDED_RSA_BITS}-bit key, publish it under a new selector and switch signing to it.`,
      ),
    ];
  }
  return [pass('dkim.key.size', 'RSA key size', `The key is ${key.bits} bits.`)];
}
