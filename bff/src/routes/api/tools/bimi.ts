import type { Check, ToolFindings } from '@bimi/contracts/tools';
import { inspectBimi } from '@bimi/email-auth/bimi';
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

/**
 * GET /api/tools/bimi: the record and its DMARC prerequisites (@bimi/email-auth), then what mail
 * providers fetch: the logo at l= (checked against SVG Tiny PS) and the certificate at a=
 * (validated, and its embedded logo compared with the published one). Both fetches run together.
 */
export async function bimiTool(domain: string, selector: string | undefined, io: ToolIo, rootStore: RootStore): Promise<ToolFindings> {
  const inspection = await inspectBimi(domain, { selector }, io.dns);
  const checks: Check[] = [...inspection.checks];
  const details: Record<string, unknown> = { ...inspection.details };
  const record = inspection.details.record;
  const logoUrl = httpsAddress(record?.logos[0]);
  const certificateUrl = httpsAddress(record?.evidence);
  if (!record || record.declined || (!logoUrl && !certificateUrl)) {
    return { records: inspection.records, checks, score: inspection.score, details };
  }

  const [logo, pem] = await Promise.all([
    fetchOrCheck(io, logoUrl, LOGO_FETCH, 'bimi.logo.fetch', 'The logo'),
    fetchOrCheck(io, certificateUrl, PEM_FETCH, 'bimi.certificate.fetch', 'The certificate'),
  ]);
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
