import { listWords } from './tag-list';

describe('listWords', () => {
  it('joins a short list in plain words', () => {
    expect(listWords([])).toBe('');
    expect(listWords(['a'])).toBe('a');
    expect(listWords(['a', 'b'])).toBe('a and b');
    expect(listWords(['a', 'b', 'c'])).toBe('a, b and c');
  });

  it('names the first items of a long list and counts the rest', () => {
    const items = Array.from({ length: 32_768 }, (_, index) => `t${index}`);
    expect(listWords(items)).toBe('t0, t1, t2, t3, t4, t5, t6, t7 and 32,760 more');
    expect(listWords(items.slice(0, 5), 3)).toBe('t0, t1, t2 and 2 more');
    expect(listWords(items.slice(0, 8))).toBe('t0, t1, t2, t3, t4, t5, t6 and t7');
  });
});
