import { containsNul } from './nul-characters';

describe('containsNul', () => {
  it('finds U+0000 in strings, array items, nested values and keys', () => {
    expect(containsNul('a\u0000b')).toBe(true);
    expect(containsNul(['ok', ['x\u0000']])).toBe(true);
    expect(containsNul({ a: { b: { c: '\u0000' } } })).toBe(true);
    expect(containsNul({ ['k\u0000']: 'v' })).toBe(true);
  });

  it('passes text without it, numbers, null and raw bodies', () => {
    expect(containsNul('Zoë \u200d 👩‍💻 \n\t')).toBe(false);
    expect(containsNul({ a: [1, null, true, { b: 'ok' }] })).toBe(false);
    expect(containsNul(Buffer.from('a\u0000b'))).toBe(false);
    expect(containsNul(undefined)).toBe(false);
  });
});
