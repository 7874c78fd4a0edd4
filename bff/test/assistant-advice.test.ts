import type { MonitorSnapshot } from '@bimi/contracts/monitors';
import { parseDmarc } from '@bimi/email-auth/dmarc-record';
import { parseTagList } from '@bimi/email-auth/tag-list';
import fc from 'fast-check';
import { currentDmarcRecords, dmarcAdvice, dmarcSuggestionProblems, recordProblems, reviewSuggestedRecords, strengthenDmarc } from '../src/services/assistant/advice';
import { builtInAnswer } from '../src/services/assistant/built-in';
import { analyzeDomain } from '../src/services/monitors/analyze';
import { useToolStore } from './tool-store';

// Issue 32: the assistant cannot do harm. Its advice comes from the domain's own verdicts; it never
// suggests a weaker policy than the current one, never a record that drops a current tag without
// saying so, and every record it suggests passes the project's own parser. Over every fixture
// domain (the real analysis) and over generated records; a model's records are held to the same rules.
jest.setTimeout(120_000);
const tools = useToolStore();

const QUESTIONS = ['Why is my logo not showing?', 'How do I fix DMARC?', 'what should I change first?'];
const RANK = { none: 0, quarantine: 1, reject: 2 } as const;

function fixtureDomains(): string[] {
  return Object.entries(tools.fixtures.zone)
    .filter(([, records]) => Array.isArray(records) && records.some((record) => record.type === 'SOA'))
    .map(([name]) => name);
}

/** Every record the answer tells to publish: `name TXT "record"`. */
function suggested(answer: string): string[] {
  return [...answer.matchAll(/TXT "([^"]+)"/g)].map((match) => match[1] as string).filter((record) => !/^Published/.test(record));
}

/** Problems with an answer's suggestions against the domain's current DMARC record. */
function harms(answer: string, snapshot: MonitorSnapshot): string[] {
  const current = currentDmarcRecords(snapshot)[0]?.value ?? null;
  const problems: string[] = [];
  for (const line of answer.split('\n')) {
    if (line.startsWith('Published:')) continue;
    for (const record of suggested(line)) {
      problems.push(...dmarcSuggestionProblems(current, record, [answer]).map((problem) => `${record}: ${problem}`));
      if (current) {
        const [before, after] = [parseDmarc(current).record.p, parseDmarc(record).record.p];
        if (before && after && RANK[after] < RANK[before]) problems.push(`${record}: weaker than ${before}`);
        // Every tag of the current record is in the suggestion, or the answer says what became of it.
        for (const tag of parseTagList(current).tags) {
          const kept = parseTagList(record).tags.some((other) => other.name.toLowerCase() === tag.name.toLowerCase() && other.value === tag.value);
          if (!kept && !answer.includes(`${tag.name}=${tag.value}`.split(';')[0] as string) && tag.name.toLowerCase() !== 'p')
            problems.push(`${record}: drops ${tag.name}=${tag.value} silently`);
        }
      }
    }
  }
  return problems;
}

describe('the assistant cannot do harm (issue 32)', () => {
  it('over every fixture domain: no weaker policy, no tag dropped silently, every record passes the parser', async () => {
    const app = tools.store.app;
    const found: string[] = [];
    const domains = fixtureDomains();
    expect(domains.length).toBeGreaterThan(50);
    for (const domain of domains) {
      const analysis = await analyzeDomain(domain, { dns: app.dnsResolver, fetch: app.safeFetch }, app.untrustedFiles, Date.now());
      const snapshot: MonitorSnapshot = { ...analysis, changes: [] };
      for (const question of QUESTIONS) for (const problem of harms(builtInAnswer(domain, snapshot, question), snapshot)) found.push(`${domain} "${question}": ${problem}`);
    }
    expect(found).toEqual([]);
  });

  it('cnn.com, already at p=reject: no quarantine record, the current record kept, its rua and ruf with it', async () => {
    const app = tools.store.app;
    const analysis = await analyzeDomain('cnn.com', { dns: app.dnsResolver, fetch: app.safeFetch }, app.untrustedFiles, Date.now());
    const answer = builtInAnswer('cnn.com', { ...analysis, changes: [] }, 'Why is my logo not showing?');
    expect(answer).not.toContain('p=quarantine');
    expect(answer).toContain('Your DMARC record is at p=reject, which BIMI accepts: keep it as it is.');
    // Hygiene comes after the real findings, under its own words.
    expect(answer).toMatch(/Hygiene \(reporting and record style[^\n]*\n1\. External report address not authorized/);
  });

  it('p=none is strengthened to quarantine with every other tag kept in place', () => {
    expect(strengthenDmarc('v=DMARC1; p=none; rua=mailto:d@x.example; ruf=mailto:f@x.example; fo=1; adkim=s')).toEqual({
      record: 'v=DMARC1; p=quarantine; rua=mailto:d@x.example; ruf=mailto:f@x.example; fo=1; adkim=s',
      changes: [expect.stringMatching(/^p=none becomes p=quarantine/)],
    });
    expect(strengthenDmarc('v=DMARC1; p=reject; rua=mailto:d@x.example')).toBeNull();
    expect(strengthenDmarc('v=DMARC1; p=reject; sp=none; pct=50; t=y')?.changes).toEqual([
      expect.stringMatching(/^sp=none removed/),
      expect.stringMatching(/^pct=50 removed/),
      expect.stringMatching(/^t=y removed/),
    ]);
  });

  // Generated DMARC records, valid and not: whatever the assistant suggests for them is safe.
  const policy = fc.constantFrom('none', 'quarantine', 'reject', 'maybe', '');
  const tag = fc.oneof(
    fc.tuple(fc.constant('sp'), policy),
    fc.tuple(fc.constant('np'), policy),
    fc.tuple(fc.constant('pct'), fc.constantFrom('100', '50', '0', '150', 'x')),
    fc.tuple(fc.constant('rua'), fc.constantFrom('mailto:d@gen.example', 'mailto:a@x.example,mailto:b@y.example', 'https://x', 'mailto:bad')),
    fc.tuple(fc.constant('ruf'), fc.constantFrom('mailto:f@gen.example', 'ftp://x')),
    fc.tuple(fc.constant('fo'), fc.constantFrom('1', '0:d', 's', 'x')),
    fc.tuple(fc.constantFrom('adkim', 'aspf'), fc.constantFrom('r', 's', 'x')),
    fc.tuple(fc.constant('t'), fc.constantFrom('y', 'n', 'maybe')),
    fc.tuple(fc.constantFrom('rf', 'ri', 'foo'), fc.constantFrom('afrf', '86400', 'bar')),
  );
  const generatedRecord = fc
    .tuple(policy, fc.array(tag, { maxLength: 7 }), fc.boolean())
    .map(([p, tags, missingP]) => ['v=DMARC1', ...(missingP ? [] : [`p=${p}`]), ...tags.map(([name, value]) => `${name}=${value}`)].join('; '));

  function snapshotWith(records: string[]): MonitorSnapshot {
    return {
      checkedAt: '2026-01-01T00:00:00.000Z',
      healthScore: 50,
      groups: [{ group: 'dmarc', label: 'DMARC', status: 'warn', records: records.map((value) => ({ name: '_dmarc.gen.example', type: 'TXT', value })), checks: [] }],
      logo: { dataUrl: null, reason: null, url: null, initial: 'G' },
      certificate: {
        present: false,
        url: null,
        kind: null,
        markType: null,
        subject: null,
        issuer: null,
        validFrom: null,
        validTo: null,
        daysLeft: null,
        logoHashMatches: null,
        status: 'absent',
        summary: '',
      },
      providers: [],
      topIssues: [],
      changes: [],
      dkimSelectors: [],
    };
  }

  it('over generated records: the suggestion is never weaker, drops nothing silently and passes the parser', () => {
    fc.assert(
      fc.property(fc.array(generatedRecord, { minLength: 1, maxLength: 2 }), (records) => {
        const advice = dmarcAdvice('gen.example', snapshotWith(records));
        if (!advice) return;
        const current = records.length === 1 ? (records[0] as string) : null;
        expect(dmarcSuggestionProblems(current, advice.record, advice.changes)).toEqual([]);
        expect(parseDmarc(advice.record).isDmarc).toBe(true);
        expect(parseDmarc(advice.record).record.p).toMatch(/^(quarantine|reject)$/);
        const answer = builtInAnswer('gen.example', snapshotWith(records), 'How do I fix DMARC?');
        expect(harms(answer, snapshotWith(records)).filter((problem) => current !== null || !/silently/.test(problem))).toEqual([]);
      }),
      { numRuns: 500, seed: 32 },
    );
  });

  it("a model's records are checked the same way before they are shown", () => {
    const snapshot = snapshotWith(['v=DMARC1; p=reject; rua=mailto:d@gen.example; ruf=mailto:f@gen.example']);
    const review = reviewSuggestedRecords('gen.example', snapshot);
    const shown =
      review('Your policy is fine.\nPublish _dmarc.gen.example TXT "v=DMARC1; p=quar') +
      review('antine"\nAnd keep SPF: "v=spf1 mx -all"\n') +
      review('Or this: "v=spf1 ip4:999.1.1.1 -all"', true);
    expect(shown).not.toContain('p=quarantine"');
    expect(shown).toContain(
      '[A record suggested here was left out: its policy p=quarantine is weaker than the current p=reject; its subdomain policy quarantine is weaker than the current reject; it drops rua=mailto:d@gen.example without saying so; it drops ruf=mailto:f@gen.example without saying so.]',
    );
    expect(shown).toContain('Keep your current DMARC record: v=DMARC1; p=reject; rua=mailto:d@gen.example; ruf=mailto:f@gen.example');
    expect(shown).toContain('And keep SPF: "v=spf1 mx -all"');
    expect(shown.split('\n').at(-1)).toBe('[A record suggested here was left out: SPF: invalid terms.]');
    expect(recordProblems('Publish "v=DMARC1; p=reject; rua=mailto:d@gen.example; ruf=mailto:f@gen.example; fo=1"', snapshot.groups[0]!.records[0]!.value)).toEqual([]);
  });
});
