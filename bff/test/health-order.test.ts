import { generateKeyPairSync } from 'node:crypto';
import type { RecordGroup } from '@bimi/contracts/monitors';
import type { Check } from '@bimi/contracts/tools';
import { fail, pass, unreachable } from '@bimi/email-auth/checks';
import { inspectBimi } from '@bimi/email-auth/bimi';
import { inspectDkim } from '@bimi/email-auth/dkim';
import { inspectDmarc } from '@bimi/email-auth/dmarc';
import { memoryResolver } from '@bimi/email-auth/memory-resolver';
import { mxFinding } from '@bimi/email-auth/mx';
import { inspectSpf } from '@bimi/email-auth/spf';
import fc from 'fast-check';
import { groupOf, topIssues } from '../src/services/monitors/analyze';
import { healthScore, PROTECTION_BANDS, protectionOf, type Protection } from '../src/services/monitors/health';

// Issue 32: the health score is an ordering (@bimi/email-auth README, "Health score"): DMARC at
// enforcement with a valid BIMI record and mark certificate > enforcement without BIMI > p=none >
// no DMARC; hygiene moves a score within its band only. Property-tested over generated domains:
// DNS zones whose records the real inspections read, and the outcomes of fetching the logo and the
// certificate (valid, wrong, or a host we could not reach).

const DOMAIN = 'generated.example';
const RANK: Record<Protection, number> = { 'no-dmarc': 0, monitoring: 1, enforced: 2, 'bimi-complete': 3 };
const DKIM_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

interface GeneratedDomain {
  policy: 'missing' | 'none' | 'quarantine' | 'reject';
  pct?: 50 | 100;
  sp?: 'none' | 'reject';
  rua: 'own' | 'external' | 'none';
  ruf: boolean;
  obsolete: boolean;
  spf: 'strict' | 'soft' | 'plus-all' | 'none';
  dkim: 'good' | 'revoked' | 'none';
  bimi: 'none' | 'declined' | 'logo-only' | 'logo-and-certificate';
  logo: 'valid' | 'wrong' | 'unreachable';
  certificate: 'valid' | 'wrong' | 'unreachable';
  mx: boolean;
}

const generatedDomain: fc.Arbitrary<GeneratedDomain> = fc.record(
  {
    policy: fc.constantFrom('missing', 'none', 'quarantine', 'reject'),
    pct: fc.constantFrom(50, 100),
    sp: fc.constantFrom('none', 'reject'),
    rua: fc.constantFrom('own', 'external', 'none'),
    ruf: fc.boolean(),
    obsolete: fc.boolean(),
    spf: fc.constantFrom('strict', 'soft', 'plus-all', 'none'),
    dkim: fc.constantFrom('good', 'revoked', 'none'),
    bimi: fc.constantFrom('none', 'declined', 'logo-only', 'logo-and-certificate'),
    logo: fc.constantFrom('valid', 'wrong', 'unreachable'),
    certificate: fc.constantFrom('valid', 'wrong', 'unreachable'),
    mx: fc.boolean(),
  },
  { requiredKeys: ['policy', 'rua', 'ruf', 'obsolete', 'spf', 'dkim', 'bimi', 'logo', 'certificate', 'mx'] },
);

function dmarcText(domain: GeneratedDomain, hygiene: boolean): string | undefined {
  if (domain.policy === 'missing') return undefined;
  const tags = [`v=DMARC1`, `p=${domain.policy}`];
  if (domain.pct !== undefined) tags.push(`pct=${domain.pct}`);
  if (domain.sp !== undefined) tags.push(`sp=${domain.sp}`);
  const rua = hygiene ? 'external' : domain.rua;
  if (rua === 'own') tags.push(`rua=mailto:dmarc@${DOMAIN}`);
  if (rua === 'external') tags.push('rua=mailto:dmarc@reports-elsewhere.example');
  if (domain.ruf || hygiene) tags.push(`ruf=mailto:${hygiene ? 'f@reports-elsewhere.example' : `f@${DOMAIN}`}`);
  if (domain.obsolete || hygiene) tags.push('ri=86400');
  return tags.join('; ');
}

/** The record groups of a generated domain, as the monitor groups the tools' checks. */
async function groupsOf(domain: GeneratedDomain, options: { hygiene?: boolean } = {}): Promise<Map<RecordGroup, Check[]>> {
  const zone: Record<string, { TXT?: string[]; MX?: { exchange: string; priority: number }[] }> = {
    [DOMAIN]: { TXT: domain.spf === 'none' ? [] : [domain.spf === 'strict' ? 'v=spf1 mx -all' : domain.spf === 'soft' ? 'v=spf1 mx ~all' : 'v=spf1 +all'] },
    'reports-elsewhere.example': { TXT: [] },
  };
  const dmarc = dmarcText(domain, options.hygiene ?? false);
  if (dmarc) zone[`_dmarc.${DOMAIN}`] = { TXT: [dmarc] };
  if (domain.dkim !== 'none') zone[`default._domainkey.${DOMAIN}`] = { TXT: [`v=DKIM1; k=rsa; p=${domain.dkim === 'good' ? DKIM_KEY : ''}`] };
  const logoUrl = 'https://logos.generated.example/logo.svg';
  const pemUrl = 'https://logos.generated.example/vmc.pem';
  if (domain.bimi !== 'none') {
    zone[`default._bimi.${DOMAIN}`] = {
      TXT: [domain.bimi === 'declined' ? 'v=BIMI1; l=; a=;' : `v=BIMI1; l=${logoUrl}${domain.bimi === 'logo-and-certificate' ? `; a=${pemUrl}` : ''}`],
    };
  }
  const dns = memoryResolver(zone);
  const [dmarcInspection, spf, dkim, bimi] = await Promise.all([inspectDmarc(DOMAIN, dns), inspectSpf(DOMAIN, dns), inspectDkim(DOMAIN, {}, dns), inspectBimi(DOMAIN, {}, dns)]);
  // What fetching the files answers, in the checks the BIMI tool gives.
  const fetched: Check[] = [];
  if (domain.bimi === 'logo-only' || domain.bimi === 'logo-and-certificate') {
    fetched.push(
      domain.logo === 'valid'
        ? pass('svg.profile', 'SVG Tiny PS', 'baseProfile="tiny-ps".')
        : domain.logo === 'wrong'
          ? fail('svg.profile', 'Not SVG Tiny PS', 'No tiny-ps profile.', 'Save the logo as SVG Tiny PS.')
          : unreachable('bimi.logo.fetch', 'The logo could not be fetched', 'logos.generated.example did not answer.', 'Try again.'),
    );
  }
  if (domain.bimi === 'logo-and-certificate') {
    fetched.push(
      domain.certificate === 'valid'
        ? pass('vmc.chain', 'Chain to a trusted root', 'Issued by a mark-certificate authority.')
        : domain.certificate === 'wrong'
          ? fail('vmc.chain', 'Not issued by a trusted authority', 'Self-signed.', 'Publish a VMC from an authorized issuer.')
          : unreachable('bimi.certificate.fetch', 'The certificate could not be fetched', 'logos.generated.example did not answer.', 'Try again.'),
    );
  }
  const groups = new Map<RecordGroup, Check[]>([
    ['dmarc', dmarcInspection.checks],
    ['spf', spf.checks],
    ['dkim', dkim.checks],
    ['bimi', []],
    ['logo', []],
    ['certificate', []],
    ['mx', [mxFinding('mx.records', 'example.com', domain.mx ? { status: 'found', value: [{ exchange: 'mx.example.com', priority: 10 }] } : { status: 'none', code: 'ENODATA' })]],
  ]);
  for (const check of [...bimi.checks, ...fetched]) groups.get(groupOf(check.id))?.push(check);
  return groups;
}

/** The band the definition gives a generated domain, from what was generated (not from the checks). */
function expectedProtection(domain: GeneratedDomain): Protection {
  if (domain.policy === 'missing') return 'no-dmarc';
  if (domain.policy === 'none') return 'monitoring';
  const bimiReady = (domain.pct ?? 100) === 100 && domain.sp !== 'none';
  const complete = domain.bimi === 'logo-and-certificate' && domain.logo !== 'wrong' && domain.certificate !== 'wrong';
  return bimiReady && complete ? 'bimi-complete' : 'enforced';
}

describe('the health score ranks protection (issue 32)', () => {
  it('gives each generated domain the band the definition says', async () => {
    await fc.assert(
      fc.asyncProperty(generatedDomain, async (domain) => {
        const groups = await groupsOf(domain);
        expect(protectionOf(groups)).toBe(expectedProtection(domain));
        const [low, high] = PROTECTION_BANDS[protectionOf(groups)];
        const score = healthScore(groups);
        expect(score).toBeGreaterThanOrEqual(low);
        expect(score).toBeLessThanOrEqual(high);
      }),
      { numRuns: 300, seed: 32 },
    );
  });

  it('a better-protected domain always scores higher, whatever else is wrong with it', async () => {
    await fc.assert(
      fc.asyncProperty(generatedDomain, generatedDomain, async (a, b) => {
        const [groupsA, groupsB] = await Promise.all([groupsOf(a), groupsOf(b)]);
        const [rankA, rankB] = [RANK[protectionOf(groupsA)], RANK[protectionOf(groupsB)]];
        fc.pre(rankA !== rankB);
        const [better, worse] = rankA > rankB ? [groupsA, groupsB] : [groupsB, groupsA];
        expect(healthScore(better)).toBeGreaterThan(healthScore(worse));
      }),
      { numRuns: 300, seed: 3232 },
    );
  });

  it('hygiene (reports to a domain that has not authorized them, obsolete tags) moves a score within its band only, and never first in what to fix', async () => {
    await fc.assert(
      fc.asyncProperty(generatedDomain, async (domain) => {
        const [clean, untidy] = await Promise.all([groupsOf(domain), groupsOf(domain, { hygiene: true })]);
        expect(protectionOf(untidy)).toBe(protectionOf(clean));
        const [low, high] = PROTECTION_BANDS[protectionOf(clean)];
        expect(healthScore(untidy)).toBeGreaterThanOrEqual(low);
        expect(healthScore(untidy)).toBeLessThanOrEqual(healthScore(clean));
        expect(healthScore(untidy)).toBeLessThanOrEqual(high);
        const issues = topIssues([...untidy].map(([group, checks]) => ({ group, label: group, status: 'info', records: [], checks })));
        const firstHygiene = issues.findIndex((issue) => /^dmarc\.(rua|ruf|fo)\.|\.obsolete$/.test(issue.checkId));
        const lastReal = issues.findLastIndex((issue) => !/^dmarc\.(rua|ruf|fo)\.|\.obsolete$/.test(issue.checkId));
        if (firstHygiene >= 0) expect(firstHygiene).toBeGreaterThan(lastReal);
      }),
      { numRuns: 200, seed: 323 },
    );
  });
});
