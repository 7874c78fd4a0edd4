import * as z from 'zod/mini';
import { isSelector, validateDomain } from './domain-name';
import { readInput } from './input';
import { decodeBase64, DKIM_MIN_RSA_BITS, DKIM_RECOMMENDED_RSA_BITS, ed25519FromSpki, readDkimKey, toBase64, type DkimKey, type DkimKeyType } from './dkim-record';
import { splitTxt } from './txt';

/** The DKIM generator: a key record from a public key the user made, checked before it is published. */

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
    if (key.type === 'rsa' && key.bits < DKIM_MIN_RSA_BITS)
      errors.push(`The key is ${key.bits} bits; verifiers reject RSA keys under ${DKIM_MIN_RSA_BITS} bits. Generate a ${DKIM_RECOMMENDED_RSA_BITS}-bit key.`);
    else if (key.type === 'rsa' && key.bits < DKIM_RECOMMENDED_RSA_BITS) warnings.push(`The key is ${key.bits} bits; ${DKIM_RECOMMENDED_RSA_BITS} bits is recommended.`);
  }
  if (errors.length > 0 || !key.ok) return { record: '', name, errors, warnings, strings: [] };
  const record = ['v=DKIM1', `k=${key.type}`, ...(source.testing === true ? ['t=y'] : []), `p=${base64}`].join('; ');
  return { record, name, errors, warnings, key: { type: key.type, bits: key.bits }, strings: splitTxt(record) };
}
