import type { BimiDetails, Check, ToolFindings } from '@bimi/contracts/tools';
import { inspectBimi } from '@bimi/email-auth/bimi';
import type { BimiRecord } from '@bimi/email-auth/bimi-record';
import { scoreChecks } from '@bimi/email-auth/checks';
import type { ToolIo } from './ports';
import type { UntrustedFiles } from '../untrusted-files/untrusted-files';
import { fetchOrCheck, httpsAddress, LOGO_FETCH, PEM_FETCH, type PublishedFile } from './published-files';

/**
 * GET /api/tools/bimi: the record and its DMARC prerequisites (@bimi/email-auth), then what mail
 * providers fetch: the logo at l= (checked against SVG Tiny PS) and the certificate at a=
 * (validated, and its embedded logo compared with the published one). Both fetches run together,
 * from the moment the record is read, while the DMARC lookups go on; both files are then read
 * together in the untrusted-files worker threads.
 */
export async function bimiTool(domain: string, selector: string | undefined, io: ToolIo, files: UntrustedFiles): Promise<ToolFindings<'bimi'>> {
  let fetches: Promise<[PublishedFile, PublishedFile]> | undefined;
  const startFetches = (record: BimiRecord) => {
    if (record.declined) return;
    fetches = Promise.all([
      fetchOrCheck(io, httpsAddress(record.logos[0]), LOGO_FETCH, 'bimi.logo.fetch', 'The logo'),
      fetchOrCheck(io, httpsAddress(record.evidence), PEM_FETCH, 'bimi.certificate.fetch', 'The certificate'),
    ]);
  };
  const inspection = await inspectBimi(domain, { selector, onRecord: startFetches }, io.dns);
  const checks: Check[] = [...inspection.checks];
  const details: BimiDetails = { ...inspection.details };
  const record = inspection.details.record;
  const logoUrl = httpsAddress(record?.logos[0]);
  const certificateUrl = httpsAddress(record?.evidence);
  if (!record || record.declined || (!logoUrl && !certificateUrl) || !fetches) {
    return { records: inspection.records, checks, score: inspection.score, details };
  }

  const [logo, pem] = await fetches;
  const [svg, report] = await Promise.all([
    logo.file ? files.checkLogo(logo.file.body) : undefined,
    pem.file ? files.validateMarkCertificate({ pem: pem.file.body.toString('utf8'), domain, publishedSvg: logo.file?.body }) : undefined,
  ]);
  if (logo.check) checks.push(logo.check);
  if (logoUrl && logo.file && svg) {
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
  // One host that cannot be reached is one finding, however many of its files the record names.
  const sameHostDown = logo.check?.status === 'unreachable' && pem.check?.status === 'unreachable' && logoUrl && certificateUrl && new URL(logoUrl).host === new URL(certificateUrl).host;
  if (pem.check && !sameHostDown) checks.push(pem.check);
  if (certificateUrl && report) {
    checks.push(...report.checks);
    details.certificate = { url: certificateUrl, ...report.details };
  }
  return { records: inspection.records, checks, score: scoreChecks(checks, inspection.score), details };
}
