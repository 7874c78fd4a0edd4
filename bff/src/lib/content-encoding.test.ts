import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chooseContentEncoding, compress } from './content-encoding';

describe('chooseContentEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip;q=0.9', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['BR', 'br'],
  ])('%j → %s', (header, expected) => {
    expect(chooseContentEncoding(header)).toBe(expected);
  });
});

describe('compress', () => {
  it('round-trips through brotli and gzip', () => {
    const page = '<html>' + 'é'.repeat(2000) + '</html>';
    expect(brotliDecompressSync(compress(page, 'br')).toString()).toBe(page);
    expect(gunzipSync(compress(page, 'gzip')).toString()).toBe(page);
  });
});
