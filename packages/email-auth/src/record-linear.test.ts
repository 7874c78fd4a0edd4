import { parseBimi } from './bimi';
import { parseDkim, readDkimKey } from './dkim';
import { parseDmarc } from './dmarc';
import { isDmarcText } from './dmarc-record';
import { normalizeDomainInput } from './domain-input';
import { validateDomain } from './domain';
import { isSpfText, parseSpf } from './spf';
import { hasMacroExpand, macroStringProblem } from './spf-macro';
import { parseTagList } from './tag-list';

/**
 * Issue 31: record text from DNS is untrusted, and the bff parses it on its event loop (the tools,
 * the monitors). Each parser must be linear: the worst inputs (tokens that make a backtracking
 * pattern or a nested loop go quadratic, repeated to what a DNS answer over TCP carries at most, 64 KB)
 * are each read within the event loop's 50 ms budget, or, on a host too slow for that, in at most
 * six times the time of a quarter of the text (linear: four times; quadratic: sixteen) and never
 * over five times the budget, in one of two measurements.
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

function msToRun(parse: (text: string) => unknown, text: string): number {
  const started = performance.now();
  try {
    parse(text);
  } catch {
    // A parser may refuse; only its time counts here.
  }
  return performance.now() - started;
}

/** The best of three: a busy machine can pause any one run; a quadratic parser is slow every time. */
const bestOfThree = (parse: (text: string) => unknown, text: string) => Math.min(msToRun(parse, text), msToRun(parse, text), msToRun(parse, text));

const BUDGET_MS = 50;

describe.each(PARSERS)('%s is linear in its input', (_name, parse) => {
  it('reads 64 KB of every worst token, after every record prefix, within the budget or linearly', () => {
    const slow: string[] = [];
    for (const prefix of PREFIXES) {
      for (const token of TOKENS) {
        const text = prefix + token.repeat(Math.ceil(SIZE / token.length));
        msToRun(parse, text.slice(0, 2000)); // compiled before it is timed
        const ms = bestOfThree(parse, text);
        if (ms < BUDGET_MS) continue;
        const quarter = text.slice(0, prefix.length + Math.ceil(SIZE / 4));
        // Over the budget on this host: judged on its growth, and measured once more before it
        // fails (a collection of the garbage can fall in any one measurement; a quadratic parser
        // is as slow the second time).
        const linear = ({ ms, quarterMs }: { ms: number; quarterMs: number }) => ms <= 5 * BUDGET_MS && ms <= 6 * quarterMs;
        const first = { ms, quarterMs: bestOfThree(parse, quarter) };
        const second = linear(first) ? first : { ms: bestOfThree(parse, text), quarterMs: bestOfThree(parse, quarter) };
        if (!linear(second)) {
          slow.push(
            `${JSON.stringify(prefix)} + ${JSON.stringify(token)} × ${Math.ceil(SIZE / token.length)}: ${first.ms.toFixed(0)} and ${second.ms.toFixed(0)} ms (a quarter of it: ${first.quarterMs.toFixed(0)} and ${second.quarterMs.toFixed(0)} ms)`,
          );
        }
      }
    }
    expect(slow).toEqual([]);
  });
});
