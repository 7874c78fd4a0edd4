import { generateKeyPairSync } from 'node:crypto';
import { buildDkimRecord, COMMON_DKIM_SELECTORS, inspectDkim, parseDkim, readDkimKey } from './dkim';
import { byId, expectFixes, ids } from './check-expectations';
import { memoryResolver } from './memory-resolver';
import { verdictOf } from './verdict';

/** Real keys from Node's crypto, so the sizes read back are the sizes generated. */
function rsaKey(bits: number, type: 'spki' | 'pkcs1' = 'spki') {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return { der: publicKey.export({ type, format: 'der' }).toString('base64'), pem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}
const rsa2048 = rsaKey(2048);
const rsa1024 = rsaKey(1024);
const rsa512 = rsaKey(512);
const rsa2048pkcs1 = rsaKey(2048, 'pkcs1');
const ed = generateKeyPairSync('ed25519').publicKey;
const edSpki = ed.export({ type: 'spki', format: 'der' });
const edRaw = edSpki.subarray(edSpki.length - 32).toString('base64');
const edPem = ed.export({ type: 'spki', format: 'pem' }).toString();

describe('readDkimKey', () => {
  it('reads the RSA modulus size from SubjectPublicKeyInfo and from a bare RSAPublicKey', () => {
    expect(readDkimKey(rsa2048.der)).toEqual({ ok: true, type: 'rsa', bits: 2048, format: 'spki' });
    expect(readDkimKey(rsa1024.der)).toMatchObject({ ok: true, bits: 1024 });
    expect(readDkimKey(rsa512.der)).toMatchObject({ ok: true, bits: 512 });
    expect(readDkimKey(rsa2048pkcs1.der)).toEqual({ ok: true, type: 'rsa', bits: 2048, format: 'pkcs1' });
  });

  it('RFC 8463: reads a raw 32-byte Ed25519 key and refuses the SubjectPublicKeyInfo form', () => {
    expect(readDkimKey(edRaw, 'ed25519')).toEqual({ ok: true, type: 'ed25519', bits: 256, format: 'raw' });
    expect(readDkimKey(edSpki.toString('base64'), 'ed25519')).toMatchObject({ ok: false, error: expect.stringContaining('RFC 8463') });
    expect(readDkimKey(edSpki.toString('base64'), 'rsa')).toMatchObject({ ok: false, error: expect.stringContaining('Ed25519') });
  });

  it.each(['', '!!!', 'abc', 'AAAA', 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'])('%j is not a key', (p) => {
    expect(readDkimKey(p).ok).toBe(false);
  });
});

describe('parseDkim', () => {
  it('RFC 6376 §3.6.1: reads the tags of a key record; FWS inside p= is allowed', () => {
    const spaced = rsa2048.der.replace(/(.{64})/g, '$1 ');
    const { isDkim, record, checks } = parseDkim(`v=DKIM1; k=rsa; h=sha256; s=email; t=s; n=notes; p=${spaced}`);
    expect(isDkim).toBe(true);
    expect(record).toMatchObject({ version: 'DKIM1', keyType: 'rsa', hashAlgorithms: ['sha256'], serviceTypes: ['email'], flags: ['s'], notes: 'notes', publicKey: rsa2048.der });
    expect(ids(checks)).toEqual(['dkim.key.size']);
    expect(checks[0]?.status).toBe('pass');
  });

  it.each([
    [`v=DKIM1; p=${rsa512.der}`, 'dkim.key.size', 'fail'],
    [`v=DKIM1; p=${rsa1024.der}`, 'dkim.key.size', 'warn'],
    [`v=DKIM1; p=${rsa2048.der}`, 'dkim.key.size', 'pass'],
    [`v=DKIM1; k=ed25519; p=${edRaw}`, 'dkim.key.ed25519', 'pass'],
    [`v=DKIM1; k=ed25519; p=${edSpki.toString('base64')}`, 'dkim.key.invalid', 'fail'],
    ['v=DKIM1; p=not-base64!', 'dkim.key.invalid', 'fail'],
    // A revoked key verifies nothing: a failure, as its score 0 says (issue 32: "0/100" beside "1 warning").
    ['v=DKIM1; p=', 'dkim.key.revoked', 'fail'],
    ['v=DKIM1; k=rsa', 'dkim.key.missing', 'fail'],
    [`v=DKIM1; k=dsa; p=${rsa2048.der}`, 'dkim.key.type', 'fail'],
    [`v=DKIM1; t=y; p=${rsa2048.der}`, 'dkim.testing', 'warn'],
    [`v=DKIM1; h=sha1; p=${rsa2048.der}`, 'dkim.hash', 'fail'],
    [`v=DKIM1; s=tlsrpt; p=${rsa2048.der}`, 'dkim.service', 'fail'],
    [`k=rsa; v=DKIM1; p=${rsa2048.der}`, 'dkim.version', 'fail'],
    [`v=DKIM2; p=${rsa2048.der}`, 'dkim.version', 'fail'],
    [`v=DKIM1; p=${rsa2048.der}; junk`, 'dkim.syntax.malformed', 'fail'],
    [`v=DKIM1; p=${rsa2048.der}; p=x`, 'dkim.syntax.duplicate', 'fail'],
    [`v=DKIM1; x=1; p=${rsa2048.der}`, 'dkim.syntax.unknown', 'info'],
  ])('%s → %s (%s)', (text, id, status) => {
    const { checks } = parseDkim(text);
    expect(byId(checks, id)?.status).toBe(status);
    expectFixes(checks);
  });

  it('text with neither p= nor v=DKIM1 is not a DKIM record', () => {
    expect(parseDkim('v=spf1 -all').isDkim).toBe(false);
  });
});

describe('inspectDkim', () => {
  const dns = memoryResolver({
    's1._domainkey.example.com': { TXT: [[`v=DKIM1; k=rsa; p=${rsa2048.der.slice(0, 200)}`, rsa2048.der.slice(200)]] },
    'google._domainkey.example.com': { TXT: [`v=DKIM1; p=${rsa1024.der}`] },
    'old._domainkey.example.com': { TXT: ['v=DKIM1; p='] },
    'two._domainkey.example.com': { TXT: [`v=DKIM1; p=${rsa2048.der}`, `v=DKIM1; p=${rsa1024.der}`] },
    'selector1._domainkey.broken.test': { error: 'ETIMEOUT' },
    'weak._domainkey.example.com': { TXT: [`v=DKIM1; p=${rsa512.der}`] },
  });

  it('checks the given selector; a key split over TXT strings is joined', async () => {
    const result = await inspectDkim('example.com', { selector: 'S1' }, dns);
    expect(ids(result.checks)).toEqual(['dkim.record.found', 'dkim.key.size']);
    expect(result.details.selectors[0]?.record?.key).toEqual({ ok: true, type: 'rsa', bits: 2048, format: 'spki' });
    expect(result.records[0]?.name).toBe('s1._domainkey.example.com');
    expect(result.score).toBe(100);
  });

  it('without a selector, tries the common selectors in parallel and reports those found', async () => {
    const result = await inspectDkim('example.com', {}, dns);
    expect(result.details.tried).toEqual([...COMMON_DKIM_SELECTORS]);
    expect(result.details.selectors.map((selector) => selector.selector)).toEqual(['google', 's1']);
    expect(result.checks.map((check) => check.title)).toContain('google: RSA key shorter than recommended');
    expect(result.score).toBe(100);
  });

  it.each([
    ['old', 'dkim.key.revoked', 0],
    ['missing', 'dkim.record.missing', 0],
    ['two', 'dkim.record.multiple', 0],
    ['weak', 'dkim.key.size', 20],
  ])('selector %s: %s', async (selector, id, maxScore) => {
    const result = await inspectDkim('example.com', { selector }, dns);
    expect(byId(result.checks, id)?.status).not.toBe('pass');
    expect(result.score).toBeLessThanOrEqual(maxScore);
    expectFixes(result.checks);
  });

  it('a DNS failure is an unreachable lookup; no key under any common selector is absent (not a warning)', async () => {
    const failed = await inspectDkim('broken.test', { selector: 'selector1' }, dns);
    expect(ids(failed.checks)).toEqual(['dkim.lookup.error']);
    expect(failed.checks[0]?.status).toBe('unreachable');
    const none = await inspectDkim('nothing.test', {}, dns);
    expect(ids(none.checks)).toEqual(['dkim.selector.not-found']);
    expect(none.checks[0]?.status).toBe('absent');
    expect(none.score).toBe(0);
    const searching = await inspectDkim('broken.test', {}, dns);
    expect(ids(searching.checks)).toEqual(['dkim.lookup.error', 'dkim.selector.not-found']);
    expectFixes([...failed.checks, ...none.checks]);
    // Not one selector answered: could not check, never "no key" (issue 32).
    const timeout = Object.assign(new Error('queryTxt ETIMEOUT'), { code: 'ETIMEOUT' });
    const down = await inspectDkim('example.com', {}, { ...memoryResolver({}), resolveTxt: async () => Promise.reject(timeout) });
    expect(new Set(down.checks.map((check) => `${check.id} ${check.status}`))).toEqual(new Set(['dkim.lookup.error unreachable']));
    const verdict = verdictOf('dkim', down.checks, down.score);
    expect(verdict.status).toBe('unreachable');
    expect(verdict).not.toHaveProperty('score');
  });

  it('rejects a bad domain or selector without querying', async () => {
    const quiet = memoryResolver({});
    expect(ids((await inspectDkim('nope', {}, quiet)).checks)).toEqual(['dkim.domain.invalid']);
    expect(ids((await inspectDkim('example.com', { selector: 'a b' }, quiet)).checks)).toEqual(['dkim.selector.invalid']);
    expect(quiet.queries).toEqual([]);
  });
});

describe('buildDkimRecord', () => {
  it('builds an RSA record from PEM, split into 255-byte strings', () => {
    const built = buildDkimRecord({ domain: 'example.com', selector: 's2025', publicKey: rsa2048.pem });
    expect(built).toMatchObject({ name: 's2025._domainkey.example.com', errors: [], warnings: [], key: { type: 'rsa', bits: 2048 } });
    expect(built.record).toBe(`v=DKIM1; k=rsa; p=${rsa2048.der}`);
    expect(built.strings.join('')).toBe(built.record);
    expect(built.strings.length).toBe(2);
    expect(parseDkim(built.record).checks.map((check) => check.status)).toEqual(['pass']);
  });

  it('RFC 8463: publishes an Ed25519 PEM key as its bare 32 bytes', () => {
    const built = buildDkimRecord({ selector: 'ed', publicKey: edPem, keyType: 'ed25519', testing: true });
    expect(built.record).toBe(`v=DKIM1; k=ed25519; t=y; p=${edRaw}`);
    expect(built.name).toBe('ed._domainkey');
  });

  it('warns under 2048 bits and refuses under 1024, a private key, a wrong type or a bad selector', () => {
    expect(buildDkimRecord({ selector: 's', publicKey: rsa1024.der }).warnings).toHaveLength(1);
    expect(buildDkimRecord({ selector: 's', publicKey: rsa512.der }).errors[0]).toContain('512 bits');
    const { privateKey } = generateKeyPairSync('ed25519');
    expect(buildDkimRecord({ selector: 's', publicKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }).errors[0]).toContain('private key');
    expect(buildDkimRecord({ selector: 's', publicKey: rsa2048.der, keyType: 'ed25519' }).errors[0]).toContain('RSA');
    const bad = buildDkimRecord({ selector: 'bad selector', publicKey: '' });
    expect(bad.record).toBe('');
    expect(bad.errors).toHaveLength(2);
  });
});
