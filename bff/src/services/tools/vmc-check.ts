import type { Check, DnsRecord, ToolFindings, VmcDetails } from '@bimi/contracts/tools';
import { inspectBimi } from '@bimi/email-auth/bimi';
import { absent, fail, info, scoreChecks } from '@bimi/email-auth/checks';
import type { ToolIo } from './ports';
import type { UntrustedFiles } from '../untrusted-files/untrusted-files';
import { fetchOrCheck, httpsAddress, LOGO_FETCH, PEM_FETCH } from './published-files';

/** Why there is no record to take a= from: the BIMI checker's own findings, said as the BIMI checker says them. */
const NO_RECORD_FINDINGS = new Set(['bimi.domain.invalid', 'bimi.lookup.error', 'bimi.record.multiple']);

/**
 * The domain's BIMI record and its l= and a= addresses, read as the BIMI checker and the monitors
 * read it (inspectBimi: the organizational domain's record when the domain has none, exactly
 * v=BIMI1, one record, the first logo of l=), so the three never disagree about which record there is.
 */
async function readBimiRecord(domain: string, io: ToolIo): Promise<{ records: DnsRecord[]; logoUrl?: string; certificateUrl?: string; check?: Check }> {
  const inspection = await inspectBimi(domain, {}, io.dns);
  const { record, selector, recordDomain } = inspection.details;
  const records = inspection.records.filter((found) => found.name.includes('._bimi.'));
  const name = `${selector}._bimi.${recordDomain ?? domain}`;
  if (!record) {
    const reason = inspection.checks.find((check) => NO_RECORD_FINDINGS.has(check.id));
    if (reason) return { records, check: reason };
    return {
      records,
      check: absent(
        'vmc.record',
        'No BIMI record',
        `${name} has no BIMI record, so there is no certificate to check.`,
        'Publish a BIMI record with a= pointing at your certificate, or check the certificate by its address.',
      ),
    };
  }
  const logoUrl = httpsAddress(record.logos[0]);
  const certificateUrl = httpsAddress(record.evidence);
  if (record.evidence && !certificateUrl) {
    return {
      records,
      check: fail(
        'vmc.record',
        'The certificate address is not https',
        `The BIMI record at ${name} names its certificate as ${record.evidence.slice(0, 200)}, which is not an https:// address, so no receiver fetches it.`,
        'Set a= to the https:// address of your VMC or CMC PEM file.',
      ),
    };
  }
  return { records, logoUrl, certificateUrl };
}

/** Validates a PEM (uploaded or fetched) and shapes the findings. */
export async function certificateFindings(
  pem: string,
  options: { files: UntrustedFiles; domain?: string; publishedSvg?: Buffer; records?: DnsRecord[]; extraChecks?: Check[]; details?: Omit<VmcDetails, 'certificate'> },
): Promise<ToolFindings<'vmc'>> {
  const report = await options.files.validateMarkCertificate({ pem, domain: options.domain, publishedSvg: options.publishedSvg });
  const checks = [...(options.extraChecks ?? []), ...report.checks];
  // A file that could not be read as a certificate scores 0, as a certificate that could not be fetched does.
  const score = report.details ? scoreChecks(checks) : 0;
  return { records: options.records ?? [], checks, score, details: { ...options.details, certificate: report.details } };
}

/** GET /api/tools/vmc?domain=: the certificate at the BIMI record's a=, checked against the domain and the logo at l=. */
export async function vmcForDomain(domain: string, io: ToolIo, files: UntrustedFiles): Promise<ToolFindings<'vmc'>> {
  const bimi = await readBimiRecord(domain, io);
  const { records } = bimi;
  if (bimi.check) return { records, checks: [bimi.check], score: 0 };
  if (!bimi.certificateUrl) {
    const check = absent(
      'vmc.record',
      'No certificate in the BIMI record',
      `The BIMI record of ${domain} has no a= tag, so it names no mark certificate; Gmail and Apple Mail show no logo without one.`,
      'Add a= with the https:// address of your VMC or CMC PEM file.',
    );
    return { records, checks: [check], score: 0, details: { logoUrl: bimi.logoUrl } };
  }
  const [pem, logo] = await Promise.all([
    fetchOrCheck(io, bimi.certificateUrl, PEM_FETCH, 'vmc.fetch', 'The certificate'),
    fetchOrCheck(io, bimi.logoUrl, LOGO_FETCH, 'vmc.logo-fetch', 'The logo'),
  ]);
  const details = { certificateUrl: bimi.certificateUrl, logoUrl: bimi.logoUrl };
  if (!pem.file) return { records, checks: [pem.check as Check], score: 0, details };
  const extraChecks = logo.check
    ? [logo.check]
    : bimi.logoUrl
      ? []
      : [info('vmc.logo-fetch', 'No logo address', 'The BIMI record has no l=, so the published logo cannot be compared with the certificate.')];
  return certificateFindings(pem.file.body.toString('utf8'), { files, domain, publishedSvg: logo.file?.body, records, extraChecks, details });
}

/** GET /api/tools/vmc?url=: a certificate by its address, checked on its own. */
export async function vmcAtUrl(url: string, io: ToolIo, files: UntrustedFiles): Promise<ToolFindings<'vmc'>> {
  const pem = await fetchOrCheck(io, url, PEM_FETCH, 'vmc.fetch', 'The certificate');
  if (!pem.file) return { records: [], checks: [pem.check as Check], score: 0, details: { certificateUrl: url } };
  return certificateFindings(pem.file.body.toString('utf8'), { files, details: { certificateUrl: url } });
}
