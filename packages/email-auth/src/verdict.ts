import { bandOf, isHygiene, worstStatus } from './checks';
import type { Check, CheckStatus } from './types';

/**
 * One verdict model for every tool (and the monitors): the question the tool answers, a headline
 * that answers it, the status it stands for, the score (`scoreChecks`: the same band as the
 * headline) and the hygiene findings, shown apart. Statuses: `fail` (the record is wrong),
 * `absent` (there is none), `unreachable` (we could not fetch or resolve it: try again),
 * `nonexistent` (the domain itself does not exist in DNS), `warn`, `pass`, `info` (nothing graded).
 */
export type VerdictTool = 'dmarc' | 'spf' | 'dkim' | 'bimi' | 'vmc' | 'txt' | 'cname' | 'records';
export type VerdictStatus = CheckStatus | 'nonexistent';

export interface Verdict {
  question: string;
  headline: string;
  status: VerdictStatus;
  /** Absent when we could not check (unreachable) or there is nothing to grade (nonexistent, unscored tools). */
  score?: number;
  /** Ids of the hygiene findings (reporting, record style): their own band, never the headline's colour. */
  hygiene: string[];
}

export const QUESTIONS: Record<VerdictTool, string> = {
  dmarc: 'Is my domain protected, and is it ready for BIMI?',
  spf: 'Does SPF say which servers may send my mail?',
  dkim: 'Can receivers verify my DKIM signatures?',
  bimi: 'Will my logo show?',
  vmc: 'Is this a valid mark certificate for my logo?',
  txt: 'What is published at this name?',
  cname: 'Where does this name point?',
  records: 'What does this domain publish?',
};

type Headlines = Record<'pass' | 'warn' | 'fail' | 'absent' | 'unreachable' | 'info', string>;

function has(checks: readonly Check[], id: string, status?: CheckStatus): boolean {
  return checks.some((check) => check.id === id && (status === undefined || check.status === status));
}

function headlinesFor(tool: VerdictTool, checks: readonly Check[]): Headlines {
  switch (tool) {
    case 'dmarc': {
      const ready = has(checks, 'dmarc.bimi.ready', 'pass');
      return {
        pass: ready ? 'Protected, and ready for BIMI' : 'Protected, not yet ready for BIMI',
        warn: has(checks, 'dmarc.policy.none')
          ? 'Not protected yet: p=none only reports, so not ready for BIMI'
          : ready
            ? 'Protected and ready for BIMI, with warnings'
            : 'Partly protected, not ready for BIMI',
        fail: 'Not protected: the DMARC record is wrong',
        absent: 'Not protected: there is no DMARC record, so not ready for BIMI',
        unreachable: 'Could not check: the DMARC lookup failed. Try again',
        info: 'Nothing to grade',
      };
    }
    case 'spf':
      return {
        pass: 'Yes: SPF names your senders and refuses the rest',
        warn: 'Mostly: SPF works, with warnings',
        fail: 'No: the SPF record is wrong, so receivers may not apply it',
        absent: 'No: there is no SPF record',
        unreachable: 'Could not check: an SPF lookup failed. Try again',
        info: 'Nothing to grade',
      };
    case 'dkim':
      return {
        pass: 'Yes: a valid DKIM key is published',
        warn: 'Yes, with warnings',
        fail: 'No: the DKIM key cannot verify signatures',
        absent: 'No DKIM key found at any selector we tried',
        unreachable: 'Could not check: the DKIM lookup failed. Try again',
        info: 'Nothing to grade',
      };
    case 'bimi':
      return {
        pass: 'Yes: your logo can show in every BIMI mailbox',
        warn: has(checks, 'bimi.a.missing') ? 'In some mailboxes: without a mark certificate, Gmail and Apple Mail will not show it' : 'Probably, with warnings',
        fail: 'No: your logo will not show until the failures below are fixed',
        absent: has(checks, 'bimi.declined') ? 'No: your BIMI record declines to show a logo (l= and a= are empty)' : 'No: there is no BIMI record',
        unreachable: has(checks, 'bimi.lookup.error')
          ? 'Cannot tell yet: the BIMI lookup failed. Try again'
          : has(checks, 'bimi.dmarc.error')
            ? 'Cannot tell yet: the DMARC lookup failed, so BIMI’s requirements could not be checked. Try again'
            : 'Cannot tell yet: we could not reach the logo or certificate host. Try again',
        info: 'Nothing to grade',
      };
    case 'vmc':
      return {
        pass: 'Yes: a valid mark certificate',
        warn: 'Yes, with warnings',
        fail: 'No: not a valid mark certificate for this logo',
        absent: 'No certificate to check',
        unreachable: 'Could not check: the certificate could not be fetched. Try again',
        info: 'Nothing to grade',
      };
    default:
      return {
        pass: 'No problems found',
        warn: 'Found, with warnings',
        fail: 'Problems found',
        absent: 'Nothing published',
        unreachable: 'Could not check: a lookup failed. Try again',
        info: 'Nothing to grade',
      };
  }
}

/** The tools that grade a whole setup carry a score; TXT, CNAME and the records list do not. */
const SCORED: ReadonlySet<VerdictTool> = new Set(['dmarc', 'spf', 'dkim', 'bimi', 'vmc']);

/**
 * The verdict of one answer. `score` is the inspection's (`scoreChecks`); the status is the worse
 * of the checks' worst status and the score's band, so the headline and the score always agree.
 * `exists: false` (the domain is NXDOMAIN) answers that, and nothing else.
 */
export function verdictOf(tool: VerdictTool, checks: readonly Check[], score: number | undefined, options: { exists?: boolean; subject?: string } = {}): Verdict {
  const question = QUESTIONS[tool];
  const hygiene = checks.filter(isHygiene).map((check) => check.id);
  if (options.exists === false) {
    return { question, headline: `${options.subject ?? 'This domain'} does not exist: DNS has no such domain. Check the spelling`, status: 'nonexistent', hygiene: [] };
  }
  const core = checks.filter((check) => !isHygiene(check));
  let status: CheckStatus = worstStatus(core);
  if (status === 'pass' || status === 'warn') {
    const band = score === undefined || !SCORED.has(tool) ? undefined : score < 50 ? 'fail' : score < 90 ? 'warn' : 'pass';
    if (band === 'fail') status = 'fail';
    else if (band === 'warn') status = 'warn';
  }
  const headline = headlinesFor(tool, checks)[status];
  const graded = SCORED.has(tool) && score !== undefined && status !== 'unreachable' && status !== 'info';
  return graded ? { question, headline, status, score: bandScore(status, score), hygiene } : { question, headline, status, hygiene };
}

/** The score kept in the status's band (it already is when it came from `scoreChecks`). */
function bandScore(status: CheckStatus, score: number): number {
  const band = bandOf(status);
  const [low, high] = band === 'fail' ? [0, 49] : band === 'warn' ? [50, 89] : [90, 100];
  return Math.max(low, Math.min(high, Math.round(score)));
}

/** Asked alongside a domain's inspection for `exists` (the rule lives with the DNS code). */
export { domainExists } from './dns';

export interface CheckCounts {
  /** Graded checks that are not hygiene, by status (`info` is shown but not counted). */
  core: Record<'fail' | 'absent' | 'unreachable' | 'warn' | 'pass', number>;
  /** Hygiene findings that are not a pass: listed under their own heading. */
  hygiene: number;
  /** "1 failed, 2 warnings, 3 passed": what an answer's summary line says, from the checks it shows. */
  words: string;
}

/**
 * The counts an answer shows, from its checks: one rule for the tools' summary line and the tests
 * (issue 32: "3 passed" above two red rows was a count of other checks than those listed).
 */
export function checkCounts(checks: readonly Check[], hygiene: readonly string[]): CheckCounts {
  const hygieneIds = new Set(hygiene);
  const core = { fail: 0, absent: 0, unreachable: 0, warn: 0, pass: 0 };
  let hygieneFindings = 0;
  for (const check of checks) {
    if (hygieneIds.has(check.id) || isHygiene(check)) {
      if (check.status !== 'pass' && check.status !== 'info') hygieneFindings += 1;
    } else if (check.status !== 'info') core[check.status] += 1;
  }
  const parts = [
    core.fail && `${core.fail} failed`,
    core.absent && `${core.absent} not found`,
    core.unreachable && `${core.unreachable} could not be checked`,
    core.warn && `${core.warn} warning${core.warn === 1 ? '' : 's'}`,
    core.pass && `${core.pass} passed`,
  ].filter(Boolean);
  const shown = checks.filter((check) => !hygieneIds.has(check.id) && !isHygiene(check)).length;
  return { core, hygiene: hygieneFindings, words: parts.length ? parts.join(', ') : `${shown} finding${shown === 1 ? '' : 's'}` };
}
