import 'reflect-metadata';
import { VmcAnswer } from '@bimi/contracts/tools';
import { logotypeExtension, selfSignedMarkCertificate } from './fixtures/tools/pki';
import { useToolStore } from './tool-store';

// Issue 17: each tool's headline answers its question, and its score is in the same band
// (pass 90–100, warn 50–89, fail or absent 0–49; none when unreachable or nonexistent), on the fixture zones.
const tools = useToolStore();
const { answer } = tools;

function inBand(status: string, score: number | undefined) {
  if (status === 'unreachable' || status === 'nonexistent') return expect(score).toBeUndefined();
  const [low, high] = status === 'pass' ? [90, 100] : status === 'warn' ? [50, 89] : [0, 49];
  expect(score).toBeGreaterThanOrEqual(low);
  expect(score).toBeLessThanOrEqual(high);
}

describe('every tool answers its question with a score that agrees', () => {
  it.each([
    ['dmarc', 'domain=good.example', 'pass', 'Protected, and ready for BIMI', 100],
    // p=reject, reports to another domain that has not authorized them: protected, hygiene apart, not red.
    ['dmarc', 'domain=dmarc-external-rua.example', 'pass', 'Protected, and ready for BIMI', 95],
    // Reports go nowhere (no rua=): still protected, and scores less than a domain whose reports arrive.
    ['dmarc', 'domain=dmarc-no-rua.example', 'pass', 'Protected, and ready for BIMI', 95],
    ['dmarc', 'domain=dmarc-none.example', 'warn', 'Not protected yet: p=none only reports, so not ready for BIMI', 50],
    ['dmarc', 'domain=dmarc-missing.example', 'absent', 'Not protected: there is no DMARC record, so not ready for BIMI', 0],
    ['dmarc', 'domain=dmarc-invalid.example', 'fail', 'Not protected: the DMARC record is wrong', undefined],
    ['spf', 'domain=good.example', 'pass', 'Yes: SPF names your senders and refuses the rest', 100],
    ['spf', 'domain=spf-missing.example', 'absent', 'No: there is no SPF record', 0],
    ['spf', 'domain=spf-plus-all.example', 'fail', 'No: the SPF record is wrong, so receivers may not apply it', undefined],
    ['dkim', 'domain=good.example', 'pass', 'Yes: a valid DKIM key is published', 100],
    // No key at any selector: not "Works, with warnings" beside 0.
    ['dkim', 'domain=dkim-missing.example', 'absent', 'No DKIM key found at any selector we tried', 0],
    ['bimi', 'domain=bimi-missing.example', 'absent', 'No: there is no BIMI record', 0],
    ['bimi', 'domain=bimi-no-certificate.example', 'warn', 'In some mailboxes: without a mark certificate, Gmail and Apple Mail will not show it', undefined],
    ['bimi', 'domain=bimi-bad-svg.example', 'fail', 'No: your logo will not show until the failures below are fixed', undefined],
    // Issue 32: the status is the worst of the checks: a revoked key is a failing check, a declined record an absent logo.
    ['dkim', 'domain=dkim-revoked.example', 'fail', 'No: the DKIM key cannot verify signatures', 0],
    ['bimi', 'domain=bimi-declined.example', 'absent', 'No: your BIMI record declines to show a logo (l= and a= are empty)', 0],
    // cnn.com: p=reject, reports to a service that has not authorized them (hygiene, two warnings).
    ['dmarc', 'domain=cnn.com', 'pass', 'Protected, and ready for BIMI', 90],
  ] as const)('%s?%s: %s, "%s"', async (tool, query, status, headline, score) => {
    const result = await answer(tool, query);
    expect(result.verdict).toMatchObject({ status, headline });
    expect(result.score).toBe(result.verdict?.score);
    if (score !== undefined) expect(result.score).toBe(score);
    inBand(status, result.score);
  });

  it('reports going nowhere or unauthorized are hygiene findings, in their own band', async () => {
    const external = await answer('dmarc', 'domain=dmarc-external-rua.example');
    expect(external.verdict?.hygiene).toContain('dmarc.rua.unauthorized');
    const nowhere = await answer('dmarc', 'domain=dmarc-no-rua.example');
    expect(nowhere.verdict?.hygiene).toContain('dmarc.rua.missing');
    expect(nowhere.score).toBeLessThan((await answer('dmarc', 'domain=good.example')).score as number);
  });

  it('cnn.com: hygiene is never a red row, and "reports go to" names no address receivers refuse (issue 32)', async () => {
    const result = await answer('dmarc', 'domain=cnn.com');
    const hygiene = result.checks.filter((check) => result.verdict?.hygiene.includes(check.id));
    expect(hygiene.map((check) => [check.id, check.status])).toEqual(
      expect.arrayContaining([
        ['dmarc.rua.unauthorized', 'warn'],
        ['dmarc.ruf.unauthorized', 'warn'],
      ]),
    );
    expect(result.checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(result.checks.filter((check) => /reports go to/.test(check.detail) && check.status === 'pass')).toEqual([]);
  });

  it('a logo host that cannot be reached is one unreachable finding, and no score', async () => {
    const result = await answer('bimi', 'domain=bimi-unreachable-host.example');
    expect(result.checks.filter((check) => check.status === 'unreachable')).toHaveLength(1);
    expect(result.checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(result.verdict).toMatchObject({ status: 'unreachable', headline: 'Cannot tell yet: we could not reach the logo or certificate host. Try again' });
    expect(result.score).toBeUndefined();
  });

  it.each(['dmarc', 'spf', 'dkim', 'bimi', 'records'] as const)('a domain that does not exist (NXDOMAIN) is answered as such by %s', async (tool) => {
    const result = await answer(tool, 'domain=no-such-domain.example');
    expect(result.verdict).toMatchObject({ status: 'nonexistent', headline: 'no-such-domain.example does not exist: DNS has no such domain. Check the spelling' });
    expect(result.score).toBeUndefined();
  });

  it.each(['txt', 'cname'] as const)('an alias whose target is gone exists (its CNAME): %s does not call it nonexistent', async (tool) => {
    const result = await answer(tool, 'name=old.good.example');
    expect(result.verdict?.status).not.toBe('nonexistent');
    if (tool === 'txt') expect(result.checks.find((check) => check.id === 'txt.lookup')?.detail).toBe('old.good.example exists but has no TXT record.');
  });

  it('the VMC validator on a self-signed certificate: not a mark certificate, and no certificate type', async () => {
    const response = await tools.store.app.inject({ method: 'POST', url: '/api/tools/vmc', payload: { pem: tools.fixtures.pki.markRootPem }, remoteAddress: '127.0.0.1' });
    expect(response.statusCode).toBe(200);
    const result = VmcAnswer.parse(response.json());
    expect(result.checks.find((check) => check.id === 'vmc.key-purpose')).toMatchObject({ status: 'fail', title: 'Not a mark certificate' });
    expect(result.details?.certificate?.certificateType).toBeUndefined();
    expect(result.verdict).toMatchObject({ status: 'fail', headline: 'No: not a valid mark certificate for this logo' });
    inBand('fail', result.score);
  });

  // Issue 32: a self-signed certificate that claims the BIMI key purpose was "No: not valid" beside
  // "Certificate type: VMC", "Pass: Certificate is valid" and "No mark type named".
  it('the VMC validator on a self-signed certificate made for BIMI: no certificate type, no mark type to miss, no "valid"', async () => {
    const pem = await selfSignedMarkCertificate({
      serialNumber: '7f01',
      name: 'CN=Self Made Mark, O=Nobody',
      domain: 'good.example',
      logotype: logotypeExtension('<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 10 10"><title>x</title></svg>'),
    });
    const response = await tools.store.app.inject({ method: 'POST', url: '/api/tools/vmc', payload: { pem }, remoteAddress: '127.0.0.1' });
    const result = VmcAnswer.parse(response.json());
    expect(result.checks.find((check) => check.id === 'vmc.chain')?.status).toBe('fail');
    expect(result.details?.certificate?.certificateType).toBeUndefined();
    expect(result.checks.map((check) => check.id)).not.toContain('vmc.mark-type');
    expect(result.checks.filter((check) => check.status === 'pass').map((check) => check.title)).not.toContain('Certificate is valid');
    expect(result.verdict).toMatchObject({ status: 'fail', headline: 'No: not a valid mark certificate for this logo' });
  });
});
