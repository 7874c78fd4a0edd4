import type { Check, DnsRecord, ToolFindings } from '@bimi/contracts/tools';
import { fail, info, scoreChecks } from '@bimi/email-auth/checks';
import { describeLookupError, lookup } from '@bimi/email-auth/dns';
import { parseTagList } from '@bimi/email-auth/tag-list';
import type { RootStore } from '@postalsys/vmc';
import { validateMarkCertificate } from '../../../plugins/app/mark-certificate';
import { FetchRefusedError, type FetchedResource, type FetchLimits } from '../../../plugins/app/safe-fetch';
import type { ToolIo } from '../../../plugins/app/tool-answers';

/** BIMI allows a 32 KB logo; a little margin lets the SVG check say "too large" with the real size. */
export const LOGO_FETCH: FetchLimits = { maxBytes: 40 * 1024, timeoutMs: 5000, maxRedirects: 3, accept: 'image/svg+xml' };
export const PEM_FETCH: FetchLimits = {
  maxBytes: 64 * 1024,
  timeoutMs: 5000,
  maxRedirects: 3,
  accept: 'application/pem-certificate-chain, application/x-pem-file, text/plain',
};

const FETCH_FIXES: Record<FetchRefusedError['reason'], string> = {
  'invalid-url': 'Publish a full https:// address.',
  'not-https': 'Serve the file over https:// and change the record to that address.',
  'blocked-address': 'Host the file on a public web server.',
  dns: 'Check that the host name in the address exists in DNS.',
  timeout: 'Check that the web server is up and answers quickly, then try again.',
  'too-large': 'Publish the file itself, within the size limit.',
  'http-status': 'Check that the file is at that exact address and is public.',
  'too-many-redirects': 'Point the record at the final address of the file.',
  network: 'Check that the web server is up and its TLS certificate is valid, then try again.',
};

/** A failed fetch as a check: what was refused or failed, in words, and what to change. */
function fetchFailureCheck(id: string, what: string, error: unknown): Check {
  const refused = error instanceof FetchRefusedError ? error : new FetchRefusedError('network', String(error));
  return fail(id, `${what} could not be fetched`, refused.message, FETCH_FIXES[refused.reason]);
}

/** The file at `url`, or the check that says why it could not be had; neither when there is no address to fetch. */
export async function fetchOrCheck(io: ToolIo, url: string | undefined, limits: FetchLimits, id: string, what: string): Promise<{ file?: FetchedResource; check?: Check }> {
  if (!url) return {};
  try {
    return { file: await io.fetch(url, limits) };
  } catch (error) {
    return { check: fetchFailureCheck(id, what, error) };
  }
}

/** The BIMI record at `<selector>._bimi.<domain>` and its l= and a= addresses. */
async function readBimiRecord(domain: string, selector: string, io: ToolIo): Promise<{ record?: DnsRecord; logoUrl?: string; certificateUrl?: string; check?: Check }> {
  const name = `${selector}._bimi.${domain}`;
  const result = await lookup(() => io.dns.resolveTxt(name));
  if (result.status === 'error') {
    return { check: fail('vmc.record', 'BIMI record lookup failed', describeLookupError(name, result), 'Try again in a minute; if it keeps failing, ask your DNS host.') };
  }
  const texts = result.status === 'found' ? result.value.map((strings) => strings.join('')).filter((text) => /^v=BIMI1\s*(;|$)/i.test(text)) : [];
  if (texts.length === 0) {
    return { check: fail('vmc.record', 'No BIMI record', `${name} has no BIMI record, so there is no certificate to check.`, 'Publish a BIMI record with a= pointing at your certificate, or check the certificate by its address.') };
  }
  const text = texts[0] as string;
  const tags = parseTagList(text).byName;
  return { record: { name, type: 'TXT', value: text }, logoUrl: tags.get('l') || undefined, certificateUrl: tags.get('a') || undefined };
}

/** Validates a PEM (uploaded or fetched) and shapes the findings. */
export async function certificateFindings(pem: string, options: { rootStore: RootStore; domain?: string; publishedSvg?: Buffer; records?: DnsRecord[]; extraChecks?: Check[]; details?: Record<string, unknown> }): Promise<ToolFindings> {
  const report = await validateMarkCertificate({ pem, rootStore: options.rootStore, domain: options.domain, publishedSvg: options.publishedSvg });
  const checks = [...(options.extraChecks ?? []), ...report.checks];
  return { records: options.records ?? [], checks, score: scoreChecks(checks), details: { ...options.details, certificate: report.details } };
}

/** GET /api/tools/vmc?domain=: the certificate at the BIMI record's a=, checked against the domain and the logo at l=. */
export async function vmcForDomain(domain: string, io: ToolIo, rootStore: RootStore): Promise<ToolFindings> {
  const bimi = await readBimiRecord(domain, 'default', io);
  if (bimi.check) return { records: [], checks: [bimi.check], score: 0 };
  const records = bimi.record ? [bimi.record] : [];
  if (!bimi.certificateUrl) {
    const check = fail('vmc.record', 'No certificate in the BIMI record', `The BIMI record of ${domain} has no a= tag, so it names no mark certificate; Gmail and Apple Mail show no logo without one.`, 'Add a= with the https:// address of your VMC or CMC PEM file.');
    return { records, checks: [check], score: 0, details: { logoUrl: bimi.logoUrl } };
  }
  const [pem, logo] = await Promise.all([
    fetchOrCheck(io, bimi.certificateUrl, PEM_FETCH, 'vmc.fetch', 'The certificate'),
    fetchOrCheck(io, bimi.logoUrl, LOGO_FETCH, 'vmc.logo-fetch', 'The logo'),
  ]);
  const details = { certificateUrl: bimi.certificateUrl, logoUrl: bimi.logoUrl };
  if (!pem.file) return { records, checks: [pem.check as Check], score: 0, details };
  const extraChecks = logo.check ? [logo.check] : bimi.logoUrl ? [] : [info('vmc.logo-fetch', 'No logo address', 'The BIMI record has no l=, so the published logo cannot be compared with the certificate.')];
  return certificateFindings(pem.file.body.toString('utf8'), { rootStore, domain, publishedSvg: logo.file?.body, records, extraChecks, details });
}

/** GET /api/tools/vmc?url=: a certificate by its address, checked on its own. */
export async function vmcAtUrl(url: string, io: ToolIo, rootStore: RootStore): Promise<ToolFindings> {
  const pem = await fetchOrCheck(io, url, PEM_FETCH, 'vmc.fetch', 'The certificate');
  if (!pem.file) return { records: [], checks: [pem.check as Check], score: 0, details: { certificateUrl: url } };
  return certificateFindings(pem.file.body.toString('utf8'), { rootStore, details: { certificateUrl: url } });
}
