import { inspectBimi, parseBimi } from './bimi';
import type { DnsResolver } from './dns';
import { inspectRecords, inspectTxt } from './dns-records';
import { inspectDkim, parseDkim, readDkimKey } from './dkim';
import { inspectDmarc, parseDmarc } from './dmarc';
import { isDmarcText } from './dmarc-record';
import { normalizeDomainInput } from './domain-input';
import { validateDomain } from './domain';
import { inspectSpf, isSpfText, parseSpf } from './spf';
import { evaluateSpf } from './spf-evaluate';
import { SPF_READ_LIMIT } from './spf-limits';
import { hasMacroExpand, macroStringProblem } from './spf-macro';
import { parseTagList } from './tag-list';
import { leastCpuMsOf, mainThreadCpuMsDuring } from '../../../bff/test/timing';

/**
 * Issue 31: record text from DNS is untrusted, and the bff parses it on its event loop (the tools,
 * the monitors). Each parser must be linear: the worst inputs (tokens that make a backtracking
 * pattern or a nested loop go quadratic, repeated to what a DNS answer over TCP carries at most, 64 KB)
 * are each read within the event loop's 50 ms budget of CPU time, or, on a host too slow for that, in
 * at most twenty times the time of an eighth of the text (linear: eight times; quadratic:
 * sixty-four) and never over five times the budget, in one of two measurements.
 */
/** What one DNS answer over TCP carries at most: no record text is longer. */
const SIZE = 64 * 1024;
const TOKENS = [
  'p=',
  'a',
  ';',
  '; ',
  '=',
  ' ',
  'a=',
  'a;',
  'v=DMARC1;',
  'rua=mailto:a@b,',
  'a@',
  'mailto:',
  'include:a.',
  'a:',
  '%{',
  '%{l}',
  'ip4:1.1.1.1 ',
  '/',
  '.',
  '-',
  'a.',
  'l=https://a/',
  'k=rsa;',
  '\\',
  '"',
  'é',
  '0',
];
const PREFIXES = ['', 'v=DMARC1; p=none; ', 'v=spf1 ', 'v=DKIM1; k=rsa; p=', 'v=BIMI1; l='];

const PARSERS: [string, (text: string) => unknown][] = [
  ['parseDmarc', parseDmarc],
  ['isDmarcText', isDmarcText],
  ['parseSpf', parseSpf],
  ['isSpfText', isSpfText],
  ['parseDkim', parseDkim],
  ['readDkimKey', (text) => readDkimKey(text)],
  ['parseBimi', parseBimi],
  ['parseTagList', parseTagList],
  ['validateDomain', validateDomain],
  ['normalizeDomainInput', normalizeDomainInput],
  ['hasMacroExpand', hasMacroExpand],
  ['macroStringProblem (domain-spec)', (text) => macroStringProblem(text, 'domain-spec')],
  ['macroStringProblem (explanation)', (text) => macroStringProblem(text, 'explanation')],
];

/** The least CPU time of three runs; a parser may refuse, only its time counts here. */
const cpuMsToRead = (parse: (text: string) => unknown, text: string) =>
  leastCpuMsOf(() => {
    try {
      parse(text);
    } catch {
      // Refused: timed all the same.
    }
  });

const BUDGET_MS = 50;

/** Within the budget, or (on a slow host) within five budgets and growing linearly from an eighth of the text. */
const isLinear = ({ ms, eighthMs }: { ms: number; eighthMs: number }) => ms < BUDGET_MS || (ms <= 5 * BUDGET_MS && ms <= 20 * eighthMs);

describe.each(PARSERS)('%s is linear in its input', (_name, parse) => {
  it('reads 64 KB of every worst token, after every record prefix, within the budget or linearly', () => {
    const slow: string[] = [];
    for (const prefix of PREFIXES) {
      for (const token of TOKENS) {
        const text = prefix + token.repeat(Math.ceil(SIZE / token.length));
        cpuMsToRead(parse, text.slice(0, 2000)); // compiled before it is timed
        const ms = cpuMsToRead(parse, text);
        if (ms < BUDGET_MS) continue;
        // Over the budget on this host: judged on its growth, and measured once more before it
        // fails (a collection of the garbage can fall in any one measurement; a quadratic parser
        // is as slow the second time).
        const eighth = text.slice(0, prefix.length + Math.ceil(SIZE / 8));
        const first = { ms, eighthMs: cpuMsToRead(parse, eighth) };
        const second = isLinear(first) ? first : { ms: cpuMsToRead(parse, text), eighthMs: cpuMsToRead(parse, eighth) };
        if (!isLinear(second)) {
          slow.push(
            `${JSON.stringify(prefix)} + ${JSON.stringify(token)} × ${Math.ceil(SIZE / token.length)}: ${first.ms.toFixed(0)} and ${second.ms.toFixed(0)} ms (an eighth of it: ${first.eighthMs.toFixed(0)} and ${second.eighthMs.toFixed(0)} ms)`,
          );
        }
      }
    }
    expect(slow).toEqual([]);
  });
});

/**
 * The walkers follow what records name (includes, redirects, address terms, MX hosts), and what
 * they answer grows with every record walked: a record that names itself thousands of times must
 * not multiply into findings and tree nodes (one SPF record of 60 KB that included itself made an
 * answer of 52 MB). Here every name answers the same crafted record, a 64 KB TXT record of one
 * naming term repeated; each walker's answer stays within a few copies of it, and within the budget.
 */
const WALKERS: [string, (dns: DnsResolver) => Promise<unknown>][] = [
  ['inspectSpf', (dns) => inspectSpf('example.com', dns)],
  ['inspectDmarc', (dns) => inspectDmarc('example.com', dns)],
  ['inspectBimi', (dns) => inspectBimi('example.com', {}, dns)],
  ['inspectDkim', (dns) => inspectDkim('example.com', { selector: 'a' }, dns)],
  ['inspectTxt', (dns) => inspectTxt('example.com', dns)],
  ['inspectRecords', (dns) => inspectRecords('example.com', dns)],
  // check_host() for one message, with the longest sender the tools take (macros expand it).
  ['evaluateSpf', (dns) => evaluateSpf({ domain: 'example.com', ip: '2001:db8::9', sender: `${'a.'.repeat(150)}a@example.com`, helo: 'mail.example.com' }, dns)],
];
const NAMING_TOKENS = [
  'include:a.test ',
  'include:example.com ',
  'a:a.test ',
  'mx:a.test ',
  'exists:a.test ',
  'redirect=a.test ',
  'include:%{d} ',
  'rua=mailto:a@a.test,',
  // Terms that cost a lookup or a match each, and macros that grow with the sender.
  'a ',
  'mx ',
  'ip6:: ',
  'ip4:192.0.2.1 ',
  'exists:%{S} ',
  'a:%{S}.a.test ',
  'exp=%{S} ',
];

/** Every TXT name answers `record` (in 255-byte strings); addresses and one MX host exist everywhere. */
function everywhere(record: string): DnsResolver {
  const strings = record.match(/[\s\S]{1,255}/g) ?? [];
  return {
    resolveTxt: async () => [strings],
    resolveMx: async () => [{ exchange: 'mx.a.test', priority: 1 }],
    resolve4: async () => ['192.0.2.1'],
    resolve6: async () => ['2001:db8::1'],
    resolveCname: async () => [],
    resolveNs: async () => ['ns.a.test'],
  };
}

/**
 * Ten included records of their own names, each just under the longest SPF record read, all filled
 * with `token`: what an evaluation or a walk may have to read at most.
 */
function tenIncludesOf(prefix: string, token: string): DnsResolver {
  const fill = (head: string) => head + token.repeat(Math.floor((SPF_READ_LIMIT - 8 - head.length) / token.length));
  const root = fill(`${prefix}${Array.from({ length: 10 }, (_, index) => `include:i${index}.a.test`).join(' ')} `);
  const included = fill(prefix);
  return { ...everywhere(included), resolveTxt: async (name) => [(name === 'example.com' ? root : included).match(/[\s\S]{1,255}/g) ?? []] };
}

describe.each(WALKERS)('%s stays linear when every record names itself', (_name, walk) => {
  it('answers 64 KB records of every naming term, and trees of the longest records read, in a few copies of the record, within twice the budget', async () => {
    const large: string[] = [];
    for (const prefix of PREFIXES) {
      for (const token of NAMING_TOKENS) {
        const zones: [string, DnsResolver][] = [
          ['64 KB', everywhere(prefix + token.repeat(Math.ceil(SIZE / token.length)))],
          ['ten includes', tenIncludesOf(prefix, token)],
        ];
        for (const [shape, dns] of zones) {
          const first = await mainThreadCpuMsDuring(() => walk(dns));
          const { result } = first;
          let { cpuMs } = first;
          // Over the budget: measured twice more, the least counts (a collection of the garbage can fall in any one run; a slow walk is as slow each time).
          for (let again = 0; again < 2 && cpuMs > 2 * BUDGET_MS; again += 1) cpuMs = Math.min(cpuMs, (await mainThreadCpuMsDuring(() => walk(dns))).cpuMs);
          const size = JSON.stringify(result).length;
          if (process.env.LINEAR_VERBOSE) console.log(`${cpuMs.toFixed(0)} ms ${shape} ${JSON.stringify(prefix)} + ${JSON.stringify(token)}`);
          if (size > 8 * SIZE || cpuMs > 2 * BUDGET_MS) large.push(`${shape}, ${JSON.stringify(prefix)} + ${JSON.stringify(token)}: ${size} characters in ${cpuMs.toFixed(0)} ms`);
        }
      }
    }
    expect(large).toEqual([]);
  });
});
