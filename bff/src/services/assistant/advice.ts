import type { MonitorSnapshot } from '@bimi/contracts/monitors';
import { isHygiene } from '@bimi/email-auth/checks';
import { parseBimi } from '@bimi/email-auth/bimi-record';
import { parseDmarc, type DmarcPolicy } from '@bimi/email-auth/dmarc-record';
import { parseSpf } from '@bimi/email-auth/spf-record';
import { parseTagList, type Tag } from '@bimi/email-auth/tag-list';

/**
 * The assistant's advice cannot do harm (issue 32): the DMARC record it suggests is computed from
 * the domain's own record and verdicts, never weakens the policy that applies, keeps every tag of
 * the current record as it is unless it says what it changes and why, and passes the project's own
 * parser. `reviewSuggestedRecords` holds a model's answer to the same rules before it is shown.
 */

const RANK: Record<DmarcPolicy, number> = { none: 0, quarantine: 1, reject: 2 };
const policyOf = (value: string | undefined): DmarcPolicy | undefined => {
  const policy = value?.trim().toLowerCase();
  return policy === 'none' || policy === 'quarantine' || policy === 'reject' ? policy : undefined;
};

/** The DMARC record(s) published at the domain, as the last check read them. */
export function currentDmarcRecords(snapshot: MonitorSnapshot | null): { name: string; value: string }[] {
  const dmarc = snapshot?.groups.find((group) => group.group === 'dmarc');
  return (dmarc?.records ?? []).filter((record) => record.type === 'TXT' && record.name.startsWith('_dmarc.') && parseDmarc(record.value).isDmarc);
}

export interface DmarcAdvice {
  /** Where to publish it. */
  name: string;
  record: string;
  /** Every change from the current record, in words (empty for a new record). */
  changes: string[];
}

/** Problems of a record as the parser reads it: not DMARC, or a failing check that is not hygiene. */
function parserProblems(text: string): string[] {
  const parsed = parseDmarc(text);
  if (!parsed.isDmarc) return ['it is not a DMARC record (it must start with v=DMARC1)'];
  return parsed.checks.filter((check) => check.status === 'fail' && !isHygiene(check)).map((check) => `${check.title.toLowerCase()} (${check.detail})`);
}

/**
 * What would make a current DMARC record protect the domain and meet BIMI's requirements, changing
 * nothing else: p=none becomes p=quarantine (p=quarantine and p=reject stay), an sp= weaker than the
 * policy, pct below 100 and t=y go, a tag the parser fails is removed; every other tag is kept as
 * written, in its place. Null when there is nothing to change.
 */
export function strengthenDmarc(current: string): { record: string; changes: string[] } | null {
  const list = parseTagList(current.trim());
  const changes: string[] = [];
  const seen = new Set<string>();
  let tags: Tag[] = [];
  for (const tag of list.tags) {
    const name = tag.name.toLowerCase();
    if (seen.has(name)) {
      changes.push(`removed the second ${tag.name}=${tag.value} (receivers read only the first)`);
      continue;
    }
    seen.add(name);
    tags.push(tag);
  }
  for (const piece of list.malformed) changes.push(`removed "${piece}", which is not a tag=value pair`);
  const get = (name: string) => tags.find((tag) => tag.name.toLowerCase() === name);
  const set = (name: string, value: string) => {
    const tag = get(name);
    if (tag) tag.value = value;
    else tags.splice(name === 'p' ? 1 : tags.length, 0, { name, value });
  };
  const remove = (name: string) => {
    tags = tags.filter((tag) => tag.name.toLowerCase() !== name);
  };

  const p = policyOf(get('p')?.value);
  const target: DmarcPolicy = p && RANK[p] >= RANK.quarantine ? p : 'quarantine';
  if (p !== target) {
    set('p', target);
    changes.push(
      p ? `p=${p} becomes p=${target}: mail that fails DMARC goes to spam instead of being delivered, and the logo can show` : `p=${target} is set (the record had no valid policy)`,
    );
  }
  const sp = get('sp');
  if (sp && (!policyOf(sp.value) || RANK[policyOf(sp.value) as DmarcPolicy] < RANK[target])) {
    remove('sp');
    changes.push(`sp=${sp.value} removed: subdomains then get p=${target}, as BIMI requires`);
  }
  const pct = get('pct');
  if (pct && pct.value.trim() !== '100') {
    remove('pct');
    changes.push(`pct=${pct.value} removed: the policy then applies to all mail, as BIMI requires`);
  }
  const testing = get('t');
  if (testing && testing.value.trim().toLowerCase() !== 'n') {
    remove('t');
    changes.push(`t=${testing.value} removed: the policy is then applied as written, not one step softer`);
  }
  // Tags the parser fails (e.g. adkim=x): removed one by one, each said.
  for (let round = 0; round < 10; round += 1) {
    const text = ['v=DMARC1', ...tags.filter((tag) => tag.name.toLowerCase() !== 'v').map((tag) => `${tag.name}=${tag.value}`)].join('; ');
    const failing = parseDmarc(text).checks.find((check) => check.status === 'fail' && !isHygiene(check));
    if (!failing) {
      if (changes.length === 0) return null;
      return { record: text, changes };
    }
    const tagName = /^dmarc\.([a-z]+)\.invalid$/.exec(failing.id)?.[1];
    const bad = tagName ? get(tagName) : undefined;
    if (!bad || tagName === 'p') return null;
    remove(tagName as string);
    changes.push(`${bad.name}=${bad.value} removed: ${failing.detail}`);
  }
  return null;
}

/**
 * The DMARC record the assistant suggests, from the domain's records and its DMARC verdict: null
 * when the current record already protects the domain as BIMI needs (p=quarantine or p=reject on
 * all mail) or cannot be strengthened safely; a first record at p=none with reports when there is
 * none; the strongest of several records, to be the only one.
 */
export function dmarcAdvice(domain: string, snapshot: MonitorSnapshot | null): DmarcAdvice | null {
  if (!snapshot) return null;
  const records = currentDmarcRecords(snapshot);
  const name = `_dmarc.${domain}`;
  if (records.length === 0) {
    const dmarc = snapshot.groups.find((group) => group.group === 'dmarc');
    // Only when the check found no record (not when the lookup failed).
    if (!dmarc?.checks.some((check) => check.id === 'dmarc.record.missing')) return null;
    return { name, record: `v=DMARC1; p=none; rua=mailto:dmarc-reports@${domain}`, changes: [] };
  }
  const strongest = [...records].sort((a, b) => RANK[policyOf(parseDmarc(b.value).record.p) ?? 'none'] - RANK[policyOf(parseDmarc(a.value).record.p) ?? 'none'])[0]!;
  const strengthened = strengthenDmarc(strongest.value);
  if (records.length > 1) {
    return {
      name: strongest.name,
      record: strengthened?.record ?? strongest.value,
      changes: [
        `delete the other ${records.length - 1} DMARC record${records.length === 2 ? '' : 's'} at ${strongest.name}: with several, receivers apply none`,
        ...(strengthened?.changes ?? []),
      ],
    };
  }
  return strengthened ? { name: strongest.name, ...strengthened } : null;
}

/**
 * What is wrong with a suggested DMARC record against the current one (empty: safe to show): it does
 * not pass the parser; its policy (or subdomain policy) is weaker than the current one; a tag of the
 * current record is missing or has another value and `stated` (the changes said with it) does not
 * name it. p, sp, pct and t may change only toward stronger protection.
 */
export function dmarcSuggestionProblems(current: string | null, suggested: string, stated: readonly string[] = []): string[] {
  const problems = parserProblems(suggested);
  if (!current) return problems;
  const before = parseDmarc(current).record;
  const after = parseDmarc(suggested).record;
  const applied = (policy: DmarcPolicy | undefined) => RANK[policy ?? 'none'];
  if (before.p && applied(after.p) < applied(before.p)) problems.push(`its policy p=${after.p ?? 'none'} is weaker than the current p=${before.p}`);
  const spBefore = before.sp ?? before.p;
  const spAfter = after.sp ?? after.p;
  if (spBefore && applied(spAfter) < applied(spBefore)) problems.push(`its subdomain policy ${spAfter ?? 'none'} is weaker than the current ${spBefore}`);
  if (before.pct === 100 && after.pct < 100) problems.push(`pct=${after.pct} applies the policy to less mail than now`);
  if (!before.testing && after.testing) problems.push('t=y applies the policy one step softer than now');
  const afterTags = new Map(parseTagList(suggested).tags.map((tag) => [tag.name.toLowerCase(), tag.value.trim()]));
  const said = stated.join(' ').toLowerCase();
  for (const tag of parseTagList(current).tags) {
    const name = tag.name.toLowerCase();
    if (name === 'v' || afterTags.get(name) === tag.value.trim()) continue;
    const strengthens = ['p', 'sp', 'pct', 't'].includes(name);
    if (strengthens) continue; // judged above, by the protection it gives
    if (!said.includes(`${name}=`)) problems.push(`it ${afterTags.has(name) ? 'changes' : 'drops'} ${tag.name}=${tag.value} without saying so`);
  }
  return problems;
}

const RECORD_IN_TEXT = /v=(DMARC1|spf1|BIMI1)\b[^"\n]*/gi;

/** Problems of any record in a line of text (DMARC against the current record; SPF and BIMI by their parsers). */
export function recordProblems(line: string, currentDmarc: string | null): string[] {
  const problems: string[] = [];
  for (const match of line.matchAll(RECORD_IN_TEXT)) {
    const text = match[0].trim().replace(/[`'.,)\]]+$/, '');
    const kind = (match[1] ?? '').toLowerCase();
    if (kind === 'dmarc1') problems.push(...dmarcSuggestionProblems(currentDmarc, text));
    else if (kind === 'spf1') {
      const parsed = parseSpf(text);
      problems.push(...parsed.checks.filter((check) => check.status === 'fail').map((check) => `SPF: ${check.title.toLowerCase()}`));
    } else {
      const parsed = parseBimi(text);
      problems.push(...parsed.checks.filter((check) => check.status === 'fail').map((check) => `BIMI: ${check.title.toLowerCase()}`));
    }
  }
  return problems;
}

/**
 * A model's answer held to the same rules, line by line as it streams: a line whose record would
 * weaken the policy, drop a current tag or fail the parser is replaced by what was wrong with it and
 * the record computed from the domain's own verdicts. Returns a function taking each streamed piece
 * and giving the text safe to show so far; call it with `end: true` for the rest.
 */
export function reviewSuggestedRecords(domain: string, snapshot: MonitorSnapshot | null): (piece: string, end?: boolean) => string {
  const current = currentDmarcRecords(snapshot)[0]?.value ?? null;
  const advice = dmarcAdvice(domain, snapshot);
  let pending = '';
  const review = (line: string): string => {
    const problems = recordProblems(line, current);
    if (problems.length === 0) return line;
    const safe = !/v=DMARC1/i.test(line)
      ? ''
      : advice
        ? `Publish instead: ${advice.name} TXT "${advice.record}"${advice.changes.length ? ` (${advice.changes.join('; ')})` : ''}.`
        : current
          ? `Keep your current DMARC record: ${current}`
          : '';
    return `[A record suggested here was left out: ${problems.join('; ')}.]${safe ? ` ${safe}` : ''}`;
  };
  return (piece, end = false) => {
    pending += piece;
    const lines = pending.split('\n');
    pending = end ? '' : (lines.pop() ?? '');
    return lines.map(review).join('\n') + (lines.length > 0 && !end ? '\n' : '');
  };
}
