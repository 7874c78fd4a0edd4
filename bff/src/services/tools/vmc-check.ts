import type { Check, DnsRecord, ToolFindings, VmcDetails } from '@bimi/contracts/tools';
import { fail, info, scoreChecks } from '@bimi/email-auth/checks';
import { describeLookupError, lookup } from '@bimi/email-auth/dns';
import { parseTagList } from '@bimi/email-auth/tag-list';
import type { ToolIo } from './ports';
import type { UntrustedFiles } from '../untrusted-files/untrusted-files';
import { fetchOrCheck, LOGO_FETCH, PEM_FETCH } from './published-files';

/** The BIMI record at `<selector>._bimi.<domain>` and its l= and a= addresses. */
async function readBimiRecord(domain: string, selector: string, io: ToolIo): Promise<{ record?: DnsRecord; logoUrl?: string; certificateUrl?: string; check?: Check }> {
  const name = `${selector}._bimi.${domain}`;
  const result = await lookup(() => io.dns.resolveTxt(name));
  if (result.status === 'error') {
    return { check: fail('vmc.record', 'BIMI record lookup failed', describeLookupError(name, result), 'Try again in a minute; if it keeps failing, ask your DNS host.') };
  }
  const texts = result.status === 'found' ? result.value.map((strings) => strings.join('')).filter((text) => /^v=BIMI1\s*(;|$)/i.test(text)) : [];
  if (texts.length === 0) {
    return {
      check: fail(
        'vmc.record',
        'No BIMI record',
        `${name} has no BIMI record, so there is no certificate to check.`,
        'Publish a BIMI record with a= pointing at your certificate, or check the certificate by its address.',
      ),
    };
  }
  const text = texts[0] as string;
  const tags = parseTagList(text).byName;
  return { record: { name, type: 'TXT', value: text }, logoUrl: tags.get('l') || undefined, certificateUrl: tags.get('a') || undefined };
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
  const bimi = await readBimiRecord(domain, 'default', io);
  if (bimi.check) return { records: [], checks: [bimi.check], score: 0 };
  const records = bimi.record ? [bimi.record] : [];
  if (!bimi.certificateUrl) {
    const check = fail(
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
