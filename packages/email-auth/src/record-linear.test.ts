import { parseBimi } from './bimi';
import { parseDkim, readDkimKey } from './dkim';
import { parseDmarc } from './dmarc';
import { isDmarcText } from './dmarc-record';
import { normalizeDomainInput } from './domain-input';
import { validateDomain } from './domain';
import { isSpfText, parseSpf } from './spf';
import { hasMacroExpand, macroStringProblem } from './spf-macro';
import { parseTagList } from './tag-list';
import { leastCpuMsOf } from '../../../bff/test/timing';

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
