import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { cpuMsOf } from '../../../test/timing';
import { MAX_PEM_BLOCKS, splitPemBundle } from './pem-bundle';

const paypal = readFileSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'tools', 'certs', 'paypal_vmc.pem'), 'utf8');
const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';

describe('splitPemBundle', () => {
  it('splits a real bundle into its certificates, each a PEM text of its own', () => {
    const bundle = splitPemBundle(paypal);
    expect(bundle).toMatchObject({ ok: true, certificates: [expect.any(String), expect.any(String), expect.any(String)] });
    for (const certificate of bundle.ok ? bundle.certificates : []) {
      expect(certificate.startsWith(BEGIN)).toBe(true);
      expect(certificate.trimEnd().endsWith(END)).toBe(true);
    }
    // Windows line ends and text around the blocks (an issuer's "subject=" lines) are fine.
    expect(splitPemBundle(`subject=CN=PayPal\r\n${paypal.replace(/\n/g, '\r\n')}`)).toMatchObject({ ok: true, certificates: { length: 3 } });
  });

  it('counts the blocks first and refuses a file of more than a handful, however they are written', () => {
    expect(splitPemBundle(`${BEGIN}\nAAAA\n${END}\n`.repeat(MAX_PEM_BLOCKS))).toMatchObject({ ok: true });
    expect(splitPemBundle(`${BEGIN}\nAAAA\n${END}\n`.repeat(MAX_PEM_BLOCKS + 1))).toEqual({ ok: false, problem: 'too-many-blocks', blocks: MAX_PEM_BLOCKS + 1 });
    expect(splitPemBundle(`${BEGIN.repeat(1300)}x`)).toEqual({ ok: false, problem: 'too-many-blocks', blocks: 1300 });
  });

  it.each([
    ['the 1,300 BEGIN lines of finding 1, filling 64 KB', BEGIN.repeat(Math.floor(65_536 / BEGIN.length))],
    ['eight BEGIN lines and no END', `${BEGIN}\n${'A'.repeat(8000)}\n`.repeat(8)],
    ['one BEGIN and 64 KB of label', `-----BEGIN ${'C'.repeat(65_000)}`],
    ['dashes only', '-'.repeat(65_536)],
    ['END lines only', END.repeat(2600)],
    ['BEGIN lines with their labels cut', '-----BEGIN \n'.repeat(5400)],
  ])('reads %s in linear time (milliseconds, not seconds)', (_name, text) => {
    const { result, ms } = cpuMsOf(() => splitPemBundle(text));
    expect(result.ok).toBe(false);
    expect(ms).toBeLessThan(250);
  });

  it('says what is wrong with a file it cannot read', () => {
    expect(splitPemBundle('x'.repeat(70_000))).toEqual({ ok: false, problem: 'too-large', characters: 70_000 });
    expect(splitPemBundle('hello')).toEqual({ ok: false, problem: 'no-certificate' });
    expect(splitPemBundle(`${BEGIN}\nAAAA\n`)).toEqual({ ok: false, problem: 'unterminated', label: 'CERTIFICATE' });
    expect(splitPemBundle(`${BEGIN}\nAAAA\n-----END PRIVATE KEY-----`)).toEqual({ ok: false, problem: 'unterminated', label: 'CERTIFICATE' });
    expect(splitPemBundle(`${paypal}-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n`)).toEqual({ ok: false, problem: 'not-a-certificate', label: 'PRIVATE KEY' });
  });

  it('never throws, and returns only whole CERTIFICATE blocks, whatever the text', () => {
    const pieces = fc.constantFrom(BEGIN, END, '-----BEGIN ', '-----END ', '-----', 'CERTIFICATE', 'PRIVATE KEY', '\n', '\r\n', 'MIIB', '=', ' ');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 60 }), (parts) => {
        const bundle = splitPemBundle(parts.join(''));
        if (!bundle.ok) return;
        expect(bundle.certificates.length).toBeLessThanOrEqual(MAX_PEM_BLOCKS);
        for (const certificate of bundle.certificates) expect(certificate).toMatch(/^-----BEGIN CERTIFICATE-----[\s\S]*-----END CERTIFICATE-----\n$/);
      }),
    );
  });
});
