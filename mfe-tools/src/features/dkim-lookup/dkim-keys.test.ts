import type { DkimDetails } from '@bimi/contracts/tools';
import { dkimKeysFrom } from './dkim-keys';

type SelectorResult = DkimDetails['selectors'][number];
const found = (selector: string, record: Partial<NonNullable<SelectorResult['record']>>): SelectorResult => ({
  selector,
  name: `${selector}._domainkey.example.com`,
  status: 'found',
  record: { text: '', tags: [], keyType: 'rsa', flags: [], ...record },
  checks: [],
  score: 100,
});

describe('dkimKeysFrom', () => {
  it('summarizes each selector with a key: type and size, revoked, or why it cannot be read', () => {
    const { keys, tried } = dkimKeysFrom({
      domain: 'example.com',
      tried: ['default', 'selector1', 'old', 'bad'],
      selectors: [
        found('default', { publicKey: 'MIIB', key: { ok: true, type: 'rsa', bits: 2048, format: 'spki' } }),
        found('selector1', { publicKey: 'MC0', key: { ok: true, type: 'ed25519', bits: 256, format: 'raw' } }),
        found('old', { publicKey: '' }),
        found('bad', { publicKey: '!!', key: { ok: false, error: 'p= is not base64.' } }),
        { selector: 'timeout', name: 'timeout._domainkey.example.com', status: 'error', checks: [], score: 0 },
      ],
    });
    expect(keys).toEqual([
      { selector: 'default', summary: 'RSA · 2048-bit', usable: true },
      { selector: 'selector1', summary: 'ED25519 · 256-bit', usable: true },
      { selector: 'old', summary: 'Revoked (empty p=)', usable: false },
      { selector: 'bad', summary: 'p= is not base64.', usable: false },
    ]);
    expect(tried).toEqual(['default', 'selector1', 'old', 'bad']);
  });
});
