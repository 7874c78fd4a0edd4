import type { Check, ToolFindings } from '@bimi/contracts/tools';
import { inspectBimi } from '@bimi/email-auth/bimi';
import type { BimiRecord } from '@bimi/email-auth/bimi-record';
import { scoreChecks } from '@bimi/email-auth/checks';
import { checkSvgTinyPs } from '@bimi/email-auth/svg';
import type { RootStore } from '@postalsys/vmc';
import { validateMarkCertificate } from '../../../plugins/app/mark-certificate';
import type { ToolIo } from '../../../plugins/app/tool-answers';
import { fetchOrCheck, LOGO_FETCH, PEM_FETCH } from './certificate';

/** Only https addresses are fetched; other values already fail the record's own checks. */
function httpsAddress(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}

type Fetched = Awaited<ReturnType<typeof fetchOrCheck>>;

/**
 * GET /api/tools/bimi: the record and its DMARC prerequisites (@bimi/email-auth), then what mail
 * providers fetch: the logo at l= (checked against SVG Tiny PS) and the certificate at a=
 * (validated, and its embedded logo compared with the published one). Both fetches run together,
 * from the moment the record is read, while the DMARC lookups go on.
 */
export async function bimiTool(domain: string, selector: string | undefined, io: ToolIo, rootStore: RootStore): Promise<ToolFindings> {
  let fetches: Promise<[Fetched, Fetched]> | undefined;
  const startFetches = (record: BimiRecord) => {
    if (record.declined) return;
    fetches = Promise.all([
      fetchOrCheck(io, httpsAddress(record.logos[0]), LOGO_FETCH, 'bimi.logo.fetch', 'The logo'),
      fetchOrCheck(io, httpsAddress(record.evidence), PEM_FETCH, 'bimi.certificate.fetch', 'The certificate'),
    ]);
  };
  const inspection = await inspectBimi(domain, { selector, onRecord: startFetches }, io.dns);
  const checks: Check[] = [...inspection.checks];
  const details: Record<string, unknown> = { ...inspection.details };
  const record = inspection.details.record;
  const logoUrl = httpsAddress(record?.logos[0]);
  const certificateUrl = httpsAddress(record?.evidence);
  if (!record || record.declined || (!logoUrl && !certificateUrl) || !fetches) {
    return { records: inspection.records, checks, score: inspection.score, details };
  }

  const [logo, pem] = await fetches;
  if (logo.check) checks.push(logo.check);
  if (logo.file) {
    const svg = checkSvgTinyPs(logo.file.body.toString('utf8'));
    checks.push(...svg.checks);
    details.logo = {
      url: logoUrl,
      finalUrl: logo.file.finalUrl,
      contentType: logo.file.contentType,
      svg: svg.details,
      score: svg.score,
      // Shown in an <img>, where an SVG runs no script: the inbox preview of the published logo.
      dataUrl: `data:image/svg+xml;base64,${logo.file.body.toString('base64')}`,
    };
  }
  if (pem.check) checks.push(pem.check);
  if (pem.file) {
    const report = await validateMarkCertificate({ pem: pem.file.body.toString('utf8'), rootStore, domain, publishedSvg: logo.file?.body });
    checks.push(...report.checks);
    details.certificate = { url: certificateUrl, ...report.details };
  }
  return { records: inspection.records, checks, score: scoreChecks(checks, inspection.score), details };
}
