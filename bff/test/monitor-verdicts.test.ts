import type { RecordGroup } from '@bimi/contracts/monitors';
import type { Check, ToolName } from '@bimi/contracts/tools';
import { isHygiene } from '@bimi/email-auth/checks';
import { analyzeDomain, type Analysis } from '../src/services/monitors/analyze';
import { useToolStore } from './tool-store';

// Issue 32: one judgement per fact. The monitor's checks are the tools' checks (same ids, statuses
// and texts), "unreachable" is never "invalid", the health score ranks protection, and "What to fix
// first" lists real failures before hygiene. On the fixture zones, through the real analysis.
jest.setTimeout(60_000);
const tools = useToolStore();

const analyses = new Map<string, Promise<Analysis>>();
function analysis(domain: string): Promise<Analysis> {
  let answer = analyses.get(domain);
  if (!answer) {
    const app = tools.store.app;
    answer = analyzeDomain(domain, { dns: app.dnsResolver, fetch: app.safeFetch }, app.untrustedFiles, Date.now());
    analyses.set(domain, answer);
  }
  return answer;
}
const group = (result: Analysis, name: RecordGroup) => result.groups.find((report) => report.group === name)?.checks ?? [];

/** The tool that judges a group's facts. */
const TOOL_OF: Partial<Record<RecordGroup, ToolName>> = { dmarc: 'dmarc', spf: 'spf', dkim: 'dkim', bimi: 'bimi', logo: 'bimi', certificate: 'bimi' };

describe('the monitor and the tools tell the same truth', () => {
  it.each([
    'cnn.com',
    'checkout.com',
    'bimi-noenforce.example',
    'good.example',
    'bimi-no-certificate.example',
    'dmarc-external-rua.example',
    'dkim-revoked.example',
    'bimi-declined.example',
  ])('%s: every check of the monitor is the tool’s own check', async (domain) => {
    const result = await analysis(domain);
    for (const report of result.groups) {
      const tool = TOOL_OF[report.group];
      if (!tool) continue;
      const answer = await tools.answer(tool, `domain=${domain}`);
      const own = (check: Check) =>
        answer.checks.some((candidate) => candidate.id === check.id && candidate.status === check.status && candidate.title === check.title && candidate.detail === check.detail);
      const foreign = report.checks.filter((check) => !check.id.startsWith('monitor.') && !own(check));
      expect({ group: report.group, foreign }).toEqual({ group: report.group, foreign: [] });
    }
  });

  it('cnn.com: the a= the checker passes is not "no mark certificate", and a host we could not reach is not "missing or not valid"', async () => {
    const cnn = await analysis('cnn.com');
    const bimi = await tools.answer('bimi', 'domain=cnn.com');
    expect(bimi.checks.find((check) => check.id === 'bimi.a.valid')).toMatchObject({ status: 'pass', title: 'Certificate location' });
    const certificate = group(cnn, 'certificate');
    expect(certificate.map((check) => check.id)).not.toContain('monitor.certificate.none');
    expect(certificate.find((check) => check.id === 'bimi.a.valid')).toMatchObject({ status: 'pass', title: 'Certificate location' });
    expect(JSON.stringify(cnn)).not.toContain('names no mark certificate');
    expect(cnn.certificate).toMatchObject({ present: true, status: 'unreachable' });
    expect(cnn.groups.find((report) => report.group === 'logo')?.status).toBe('unreachable');
    for (const provider of cnn.providers) {
      expect(provider.reasons.join(' ')).not.toMatch(/missing or not valid|No mark certificate/);
      expect(provider.reasons.join(' ')).toMatch(/could not (reach|fetch)/);
    }
  });

  // The review of 2026-11-28: a failed BIMI lookup made the monitor say "No logo published" and
  // "No mark certificate" where the checker said it could not check.
  it('dns-servfail.example: a BIMI lookup that failed leaves the logo and the certificate not checked, never absent', async () => {
    const result = await analysis('dns-servfail.example');
    const bimi = await tools.answer('bimi', 'domain=dns-servfail.example');
    expect(bimi.checks.map((check) => [check.id, check.status])).toContainEqual(['bimi.lookup.error', 'unreachable']);
    expect(group(result, 'logo').map((check) => [check.id, check.status])).toEqual([['monitor.logo.unknown', 'unreachable']]);
    expect(group(result, 'certificate').map((check) => [check.id, check.status])).toEqual([['monitor.certificate.unknown', 'unreachable']]);
    expect(result.certificate).toMatchObject({ present: false, status: 'unreachable' });
    expect(JSON.stringify(result)).not.toMatch(/No logo published|No mark certificate|missing or not valid/);
    for (const provider of result.providers) {
      expect(provider.reasons).toContain('We could not look up the BIMI record, so we cannot tell yet whether a logo is published. We try again on the next check.');
      expect(provider.reasons.join(' ')).not.toMatch(/logo’s host/);
    }
  });

  it('cnn.com: the host of the logo and the certificate, down, is said of the certificate in the certificate’s words', async () => {
    const certificate = group(await analysis('cnn.com'), 'certificate');
    expect(certificate.find((check) => check.id === 'monitor.certificate.fetch')).toMatchObject({ status: 'unreachable', title: 'The certificate could not be reached' });
    expect(certificate.map((check) => check.title)).not.toContain('The logo could not be reached');
  });

  it('the health score ranks protection: cnn.com (p=reject, BIMI with a certificate) > checkout.com (no BIMI) > p=none > no DMARC', async () => {
    const [cnn, checkout, noEnforce, noDmarc] = await Promise.all(['cnn.com', 'checkout.com', 'bimi-noenforce.example', 'dmarc-missing.example'].map(analysis));
    expect(cnn!.healthScore).toBeGreaterThan(checkout!.healthScore);
    expect(checkout!.healthScore).toBeGreaterThan(noEnforce!.healthScore);
    expect(noEnforce!.healthScore).toBeGreaterThan(noDmarc!.healthScore);
    expect((await analysis('good.example')).healthScore).toBeGreaterThanOrEqual(cnn!.healthScore);
  });

  it('"What to fix first" lists real failures before hygiene; hygiene is never red nor first', async () => {
    const cnn = await analysis('cnn.com');
    // Nothing real to fix on cnn.com (the host we could not reach is not a fix): only hygiene, which
    // the page lists under its own heading. The order over generated domains: health-order.test.ts.
    const kinds = cnn.topIssues.map((issue) => (isHygiene({ id: issue.checkId }) ? 'hygiene' : 'real'));
    expect(kinds).toEqual(['hygiene', 'hygiene']);
    expect(cnn.topIssues.filter((issue) => isHygiene({ id: issue.checkId })).every((issue) => issue.status === 'warn')).toBe(true);
    const dmarc = cnn.groups.find((report) => report.group === 'dmarc');
    expect(dmarc?.checks.filter((check) => check.status === 'fail')).toEqual([]);
    // The DMARC group's status is the DMARC tool's verdict: protected, hygiene apart.
    expect(dmarc?.status).toBe((await tools.answer('dmarc', 'domain=cnn.com')).verdict?.status);
  });
});
