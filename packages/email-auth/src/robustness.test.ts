import { isCheck } from './check-expectations';
import type { Check } from './types';
import fc from 'fast-check';
import { buildBimiRecord, inspectBimi, parseBimi } from './bimi';
import { buildDkimRecord, inspectDkim, parseDkim, readDkimKey } from './dkim';
import { buildDmarcRecord, checkBimiReadiness, inspectDmarc, parseDmarc } from './dmarc';
import type { DnsResolver } from './dns';
import { organizationalDomain, validateDomain } from './domain';
import { buildSpfRecord, inspectSpf, parseSpf } from './spf';
import { evaluateSpf, SPF_RESULTS } from './spf-evaluate';
import { expandMacros, parseClientIp } from './spf-macro';
import { inspectCname, inspectRecords, inspectTxt } from './dns-records';
import { splitTxt } from './txt';
import { checkSvgTinyPs } from './svg';

/**
 * Property tests: no text, however malformed, makes a parser, validator or builder throw or hang,
 * and no zone, however cyclic or huge, keeps an inspection from finishing.
 */

/** Pieces of real records, so generated text gets deep into the parsers rather than failing at v=. */
const FRAGMENTS = [
  'v=DMARC1',
  'v=spf1',
  'v=DKIM1',
  'v=BIMI1',
  ';',
  '=',
  ' ',
  '  ',
  ':',
  ',',
  '/',
  '//',
  '!',
  '%{',
  '}',
  '%{i}',
  'p',
  'sp',
  'np',
  'pct',
  'rua',
  'ruf',
  'reject',
  'none',
  'mailto:',
  '@',
  'example.com',
  'include:',
  'redirect=',
  'ip4:',
  'ip6:',
  '192.0.2.1',
  '2001:db8::',
  '/24',
  'a',
  'mx',
  'ptr',
  '-all',
  '~all',
  '+',
  '?',
  'k=',
  'rsa',
  'ed25519',
  'p=',
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA',
  'h=sha1',
  't=y',
  'l=',
  'a=',
  'https://',
  '.svg',
  '\t',
  '\u0000',
  '😀',
  'é',
  '\n',
];
const recordLike = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 80 }).map((parts) => parts.join(''));
const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 200 }), recordLike, fc.string({ unit: fc.constantFrom(';', '=', ' ', 'a', ':'), maxLength: 5000 }));
const huge = [
  ';'.repeat(200_000),
  '='.repeat(200_000),
  `v=DMARC1; ${'p=reject;'.repeat(20_000)}`,
  `v=spf1 ${'include:a.example '.repeat(20_000)}-all`,
  `v=DKIM1; p=${'A'.repeat(300_000)}`,
  '\u{1F600}'.repeat(50_000),
];

/** Hundreds of generated cases per property: room for a loaded machine (a hang still fails). */
const PROPERTY_TIMEOUT_MS = 30_000;

function expectChecks(checks: readonly Check[]) {
  for (const check of checks) expect(isCheck(check)).toBe(true);
}

describe('no text makes a parser, validator or builder throw', () => {
  it(
    'parsers',
    () => {
      fc.assert(
        fc.property(anyText, (text) => {
          expectChecks(parseDmarc(text).checks);
          expectChecks(parseSpf(text).checks);
          expectChecks(parseDkim(text).checks);
          expectChecks(parseBimi(text).checks);
          expectChecks(checkBimiReadiness(parseDmarc(text).record).checks);
          readDkimKey(text);
          readDkimKey(text, 'ed25519');
          validateDomain(text);
          organizationalDomain(text);
        }),
        { numRuns: 300 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'the SVG check',
    () => {
      const svgLike = fc
        .array(
          fc.constantFrom(
            '<svg',
            '<svg xmlns="http://www.w3.org/2000/svg"',
            '>',
            '</svg>',
            '<title>',
            '</title>',
            '<!--',
            '-->',
            '<![CDATA[',
            ']]>',
            '<!DOCTYPE svg [<!ENTITY a "aaaa">]>',
            '&a;',
            '&',
            '"',
            "'",
            '=',
            'xlink:href',
            'viewBox="0 0 1 1"',
            '<script>',
            ' ',
            'x:',
            '\u0000',
          ),
          { maxLength: 60 },
        )
        .map((parts) => parts.join(''));
      fc.assert(
        fc.property(fc.oneof(anyText, svgLike), (text) => {
          const result = checkSvgTinyPs(text);
          expectChecks(result.checks);
          expect(result.score).toBeGreaterThanOrEqual(0);
        }),
        { numRuns: 300 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'builders, given anything at all',
    () => {
      fc.assert(
        fc.property(fc.anything(), fc.anything(), (value, other) => {
          const inputs = [
            value,
            { p: value, rua: other, pct: value },
            { includes: value, ip4: other, all: value },
            { selector: value, publicKey: other },
            { logo: value, evidence: other, selector: value },
          ];
          for (const input of inputs) {
            for (const build of [buildDmarcRecord, buildSpfRecord, buildDkimRecord, buildBimiRecord] as ((input: unknown) => { record: string; name: string; errors: string[] })[]) {
              const built = build(input);
              expect(typeof built.record).toBe('string');
              expect(typeof built.name).toBe('string');
              expect(Array.isArray(built.errors)).toBe(true);
            }
          }
        }),
        { numRuns: 200 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it('whatever a builder accepts parses back as its kind of record', () => {
    fc.assert(
      fc.property(fc.record({ p: fc.constantFrom('none', 'quarantine', 'reject', 'x'), pct: fc.integer({ min: -5, max: 105 }), rua: fc.array(recordLike, { maxLength: 3 }) }), (input) => {
        const built = buildDmarcRecord(input);
        if (built.errors.length === 0) expect(parseDmarc(built.record).isDmarc).toBe(true);
      }),
    );
    fc.assert(
      fc.property(
        fc.record({ includes: fc.array(fc.oneof(recordLike, fc.domain()), { maxLength: 12 }), ip4: fc.array(fc.ipV4(), { maxLength: 40 }), ip6: fc.array(fc.ipV6(), { maxLength: 5 }) }),
        (input) => {
          const built = buildSpfRecord(input);
          if (built.errors.length === 0) {
            expect(parseSpf(built.record).record.invalid).toEqual([]);
            expect(built.strings.join('')).toBe(built.record);
          }
        },
      ),
    );
  });

  it.each(huge.map((text) => [text.slice(0, 20), text]))('huge text %j…', (_, text) => {
    expectChecks(parseDmarc(text).checks);
    expectChecks(parseSpf(text).checks);
    expectChecks(parseDkim(text).checks);
    expectChecks(parseBimi(text).checks);
    expectChecks(checkSvgTinyPs(text).checks);
    expect(validateDomain(text).ok).toBe(false);
    expect(splitTxt(text).join('')).toBe(text);
  });
});

/** A resolver answering every TXT query from a function of the name, and nothing else. */
function txtResolver(answer: (name: string) => string[][] | Error): DnsResolver & { queries: number } {
  const resolver = {
    queries: 0,
    resolveTxt: async (name: string) => {
      resolver.queries += 1;
      const result = answer(name.toLowerCase());
      if (result instanceof Error) throw result;
      return result;
    },
    resolveMx: async () => {
      resolver.queries += 1;
      return [];
    },
    resolve4: async () => {
      resolver.queries += 1;
      throw Object.assign(new Error('none'), { code: 'ENOTFOUND' });
    },
    resolve6: async () => {
      resolver.queries += 1;
      throw Object.assign(new Error('none'), { code: 'ENODATA' });
    },
    resolveCname: async () => [],
  };
  return resolver;
}

describe('no zone keeps an inspection from finishing', () => {
  it(
    'random SPF graphs over ten names (cycles, self-includes, redirects, junk) terminate',
    async () => {
      const term = fc.oneof(
        fc.nat({ max: 9 }).map((n) => `include:d${n}.test`),
        fc.nat({ max: 9 }).map((n) => `redirect=d${n}.test`),
        fc.nat({ max: 9 }).map((n) => `a:d${n}.test`),
        fc.constantFrom('mx', 'ptr', 'exists:%{i}.x.test', '-all', '~all', 'ip4:192.0.2.1', 'junk', '+all'),
      );
      const zone = fc.array(
        fc.array(term, { maxLength: 12 }).map((terms) => `v=spf1 ${terms.join(' ')}`),
        { minLength: 10, maxLength: 10 },
      );
      await fc.assert(
        fc.asyncProperty(zone, async (records) => {
          const dns = txtResolver((name) => {
            const index = /^d(\d)\.test$/.exec(name)?.[1];
            return index === undefined ? Object.assign(new Error('none'), { code: 'ENOTFOUND' }) : [[records[Number(index)] ?? '']];
          });
          const result = await inspectSpf('d0.test', dns);
          expectChecks(result.checks);
          expect(result.score).toBeGreaterThanOrEqual(0);
          expect(dns.queries).toBeLessThanOrEqual(130);
        }),
        { numRuns: 150 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it('an endless tree (every name includes fifty new names) stops at the walk bounds', async () => {
    const dns = txtResolver((name) => [[`v=spf1 ${Array.from({ length: 50 }, (_, index) => `include:${index}.${name}`.slice(-200)).join(' ')} -all`]]);
    const result = await inspectSpf('endless.test', dns);
    expect(result.details.truncated).toBe(true);
    expect(result.details.lookups).toBeGreaterThan(10);
    expect(result.checks.map((check) => check.id)).toEqual(expect.arrayContaining(['spf.lookups.limit', 'spf.tree.truncated']));
    expect(dns.queries).toBeLessThanOrEqual(130);
  });

  it(
    'arbitrary TXT answers and failures never break DMARC, DKIM or BIMI inspections',
    async () => {
      const answer = fc.oneof(
        fc.array(fc.array(anyText, { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
        fc.constantFrom('ENOTFOUND', 'ENODATA', 'ETIMEOUT', 'ESERVFAIL', 'ECONNREFUSED', 'WHATEVER').map((code) => Object.assign(new Error(code), { code })),
      );
      await fc.assert(
        fc.asyncProperty(answer, fc.constantFrom('example.com', 'a.b.example.co.uk'), async (txt, domain) => {
          const dns = txtResolver(() => txt);
          for (const result of [await inspectDmarc(domain, dns), await inspectDkim(domain, { selector: 's1' }, dns), await inspectBimi(domain, {}, dns), await inspectSpf(domain, dns)]) {
            expectChecks(result.checks);
            expect(result.score).toBeGreaterThanOrEqual(0);
            expect(result.score).toBeLessThanOrEqual(100);
          }
        }),
        { numRuns: 100 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe('the SPF evaluator (check_host) and the macro expander never throw or hang', () => {
  const macroLike = fc
    .array(
      fc.constantFrom(
        '%{',
        '}',
        '%%',
        '%_',
        '%-',
        '%',
        's',
        'l',
        'o',
        'd',
        'i',
        'p',
        'h',
        'c',
        'r',
        't',
        'v',
        'S',
        'L',
        'x',
        '1',
        '0',
        '99999',
        'r',
        '.',
        '-',
        '+',
        ',',
        '/',
        '_',
        '=',
        ' ',
        'example',
        '\u0000',
        'é',
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join(''));
  const values = fc.record({
    sender: fc.oneof(fc.emailAddress(), anyText),
    domain: fc.oneof(fc.domain(), anyText),
    ip: fc.oneof(fc.ipV4(), fc.ipV6()),
    helo: fc.oneof(fc.domain(), anyText),
  });

  it(
    'expandMacros, in every context, answers text or a problem; a domain-spec fits 253 characters',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(macroLike, anyText), values, async (text, given) => {
          const ip = parseClientIp(given.ip);
          if (!ip) return;
          for (const context of ['domain-spec', 'explanation', 'modifier'] as const) {
            const result = await expandMacros(text, context, { ...given, ip, validatedName: async () => 'unknown' });
            if (result.ok && context === 'domain-spec') expect(result.text.length).toBeLessThanOrEqual(253);
            if (!result.ok) expect(result.problem.length).toBeGreaterThan(5);
          }
        }),
        { numRuns: 300 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'evaluateSpf over random graphs of records (cycles, macros, ptr, exp, junk) finishes with one of the seven results',
    async () => {
      const term = fc.oneof(
        fc.nat({ max: 9 }).map((n) => `include:d${n}.test`),
        fc.nat({ max: 9 }).map((n) => `redirect=d${n}.test`),
        fc.nat({ max: 9 }).map((n) => `a:d${n}.test/24`),
        fc.nat({ max: 9 }).map((n) => `mx:d${n}.test`),
        fc.constantFrom(
          'ptr',
          'ptr:test',
          'exists:%{i}.%{l}.x.test',
          'include:%{d2}',
          'exists:%{p}.test',
          'exp=d1.test',
          '-all',
          '~all',
          '?all',
          'ip4:192.0.2.0/24',
          'ip6:2001:db8::/32',
          'junk',
          '+all',
          'foo=%{x}',
          'a//64',
        ),
        macroLike.map((text) => `exists:${text}`),
      );
      const zone = fc.array(
        fc.array(term, { maxLength: 12 }).map((terms) => `v=spf1 ${terms.join(' ')}`),
        { minLength: 10, maxLength: 10 },
      );
      await fc.assert(
        fc.asyncProperty(zone, values, async (records, given) => {
          let queries = 0;
          const dns: DnsResolver = {
            resolveTxt: async (name) => {
              queries += 1;
              const index = /^d(\d)\.test$/.exec(name.toLowerCase())?.[1];
              if (index === undefined) throw Object.assign(new Error('none'), { code: 'ENOTFOUND' });
              return [[records[Number(index)] ?? '']];
            },
            resolveMx: async (name) => {
              queries += 1;
              return Array.from({ length: name.length % 13 }, (_, n) => ({ exchange: `d${n % 10}.test`, priority: n }));
            },
            resolve4: async (name) => {
              queries += 1;
              if (name.length % 3 === 0) throw Object.assign(new Error('t'), { code: 'ETIMEOUT' });
              return ['192.0.2.1'];
            },
            resolve6: async () => {
              queries += 1;
              return ['2001:db8::1'];
            },
            resolveCname: async () => [],
            resolvePtr: async () => {
              queries += 1;
              return Array.from({ length: 15 }, (_, n) => `d${n % 10}.test`);
            },
          };
          const result = await evaluateSpf({ ...given, domain: 'd0.test' }, dns);
          expect(SPF_RESULTS).toContain(result.result);
          expect(result.lookups).toBeLessThanOrEqual(11);
          expect(typeof result.reason).toBe('string');
          expect(queries).toBeLessThanOrEqual(400);
        }),
        { numRuns: 200 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'evaluateSpf and the record inspections take any input at all',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.anything(), fc.anything(), async (ip, domain) => {
          const dns = txtResolver(() => [['v=spf1 a mx ptr exists:%{i}.x.test -all']]);
          const result = await evaluateSpf({ ip, domain, sender: ip, helo: domain } as never, dns);
          expect(SPF_RESULTS).toContain(result.result);
          const name = typeof domain === 'string' ? domain.slice(0, 300) : 'example.com';
          for (const findings of [await inspectTxt(name, dns), await inspectCname(name, dns), await inspectRecords(name, dns)]) expectChecks(findings.checks);
        }),
        { numRuns: 100 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
