import { expandMacros, macroStringProblem, parseClientIp, type MacroValues } from './spf-macro';

/** RFC 7208 §7.4's examples, and the syntax rules of §7.1–§7.3. */

const v4: MacroValues = {
  sender: 'strong-bad@email.example.com',
  domain: 'email.example.com',
  ip: parseClientIp('192.0.2.3')!,
  helo: 'mx.example.org',
  validatedName: async () => 'mx.example.org',
};
const v6: MacroValues = { ...v4, ip: parseClientIp('2001:db8::cb01')! };

async function expand(text: string, values = v4) {
  const result = await expandMacros(text, 'domain-spec', values);
  if (!result.ok) throw new Error(result.problem);
  return result.text;
}

describe('RFC 7208 §7.4 macro examples', () => {
  it.each([
    ['%{s}', 'strong-bad@email.example.com'],
    ['%{o}', 'email.example.com'],
    ['%{d}', 'email.example.com'],
    ['%{d4}', 'email.example.com'],
    ['%{d3}', 'email.example.com'],
    ['%{d2}', 'example.com'],
    ['%{d1}', 'com'],
    ['%{dr}', 'com.example.email'],
    ['%{d2r}', 'example.email'],
    ['%{l}', 'strong-bad'],
    ['%{l-}', 'strong.bad'],
    ['%{lr}', 'strong-bad'],
    ['%{lr-}', 'bad.strong'],
    ['%{l1r-}', 'strong'],
    ['%{ir}.%{v}._spf.%{d2}', '3.2.0.192.in-addr._spf.example.com'],
    ['%{lr-}.lp._spf.%{d2}', 'bad.strong.lp._spf.example.com'],
    ['%{lr-}.lp.%{ir}.%{v}._spf.%{d2}', 'bad.strong.lp.3.2.0.192.in-addr._spf.example.com'],
    ['%{ir}.%{v}.%{l1r-}.lp._spf.%{d2}', '3.2.0.192.in-addr.strong.lp._spf.example.com'],
    ['%{d2}.trusted-domains.example.net', 'example.com.trusted-domains.example.net'],
  ])('%s → %s', async (macro, expected) => {
    expect(await expand(macro)).toBe(expected);
  });

  it('IPv6: %{ir}.%{v}._spf.%{d2} spells the address in reversed nibbles', async () => {
    expect(await expand('%{ir}.%{v}._spf.%{d2}', v6)).toBe('1.0.b.c.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6._spf.example.com');
  });

  it('§7.3: an upper-case letter URL-escapes the value; %%, %_ and %- are "%", " " and "%20"', async () => {
    const values = { ...v4, sender: 'jo bloggs/x@example.com' };
    expect(await expandMacros('%{L} %% %_ %-', 'explanation', values)).toEqual({ ok: true, text: 'jo%20bloggs%2Fx %   %20' });
  });

  it('§7.3: %{p} is the validated name, %{h} the HELO name; c, r and t expand in explanations', async () => {
    expect(await expand('%{p}.%{h}')).toBe('mx.example.org.mx.example.org');
    const result = await expandMacros('%{c} %{r} %{t}', 'explanation', { ...v6, receiver: 'rx.example', timestamp: 1700000000 });
    expect(result).toEqual({ ok: true, text: '2001:db8::cb01 rx.example 1700000000' });
  });

  it('§4.3: an empty local part reads as postmaster', async () => {
    expect(await expand('%{l}', { ...v4, sender: '@example.com' })).toBe('postmaster');
  });

  it('§4.8: an expansion over 253 characters loses labels on the left', async () => {
    const long = await expand('%{l}.%{d}', { ...v4, sender: `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}@x.example` });
    expect(long.length).toBeLessThanOrEqual(253);
    expect(long.endsWith('.email.example.com')).toBe(true);
  });
});

describe('macro-string syntax (RFC 7208 §7.1)', () => {
  it.each([
    ['%{c}.example.com', 'domain-spec', 'explanation text only'],
    ['%{r}.example.com', 'domain-spec', 'explanation text only'],
    ['%{t}.example.com', 'domain-spec', 'explanation text only'],
    ['%{x}.example.com', 'domain-spec', 'not a macro letter'],
    ['%abc', 'modifier', 'starts no macro'],
    ['100%', 'domain-spec', 'starts no macro'],
    ['%{d', 'domain-spec', 'broken macro'],
    ['%{d0}', 'domain-spec', '1 or more'],
    ['a b', 'domain-spec', 'a space'],
  ] as const)('%j in a %s: %s', (text, context, words) => {
    expect(macroStringProblem(text, context)).toContain(words);
  });

  it.each([
    ['%{c} %{r} %{t} %{i}', 'explanation'],
    ['%{d2r+-}.%{L}.%{ir}', 'domain-spec'],
    ['%%%_%-.example.com', 'domain-spec'],
    ['foo:bar/baz.example.com', 'domain-spec'],
    ['%{c}', 'modifier'],
  ] as const)('%j is a valid macro-string in a %s', (text, context) => {
    expect(macroStringProblem(text, context)).toBeNull();
  });
});

describe('expansion size', () => {
  // Thousands of %{S} and a 300-character sender expanded to megabytes, escaped byte by byte on the bff's event loop.
  it('stops past the longest expansion with a problem, and keeps a long domain-spec cut to 253 characters', async () => {
    const values = { ...v4, sender: `${'a.'.repeat(150)}a@example.com` };
    await expect(expandMacros('%{S}'.repeat(14_500), 'domain-spec', values)).resolves.toEqual({ ok: false, problem: 'expands to more than 2,048 characters' });
    await expect(expandMacros('x'.repeat(3000), 'explanation', values)).resolves.toEqual({ ok: false, problem: 'expands to more than 2,048 characters' });
    const long = await expandMacros('%{s}', 'domain-spec', values);
    expect(long.ok && long.text.length).toBeLessThanOrEqual(253);
  });
});
