import * as z from 'zod/mini';

/**
 * The mark certificate as the bff describes it in a BIMI or VMC answer's `details`
 * (bff/src/plugins/app/mark-certificate.ts). Every field is optional here: a field the page
 * cannot read is left out of the table rather than breaking the page.
 */
const text = z.optional(z.nullable(z.string()));

export const MarkCertificate = z.object({
  certificateType: text,
  markType: text,
  organization: text,
  commonName: text,
  issuer: text,
  issuerOrganization: text,
  serialNumber: text,
  fingerprint: text,
  validFrom: text,
  validTo: text,
  daysLeft: z.optional(z.nullable(z.number())),
  subjectAltNames: z.optional(z.array(z.string())),
  trademarkOffice: text,
  trademarkCountry: text,
  trademarkRegistration: text,
  wordMark: text,
  chainLength: z.optional(z.nullable(z.number())),
  logoDataUrl: text,
  logoHash: text,
});
export type MarkCertificate = z.infer<typeof MarkCertificate>;

/** Only an SVG image as a data: URL is ever given to <img>; anything else is not shown. */
export function safeLogoUrl(value: unknown): string | undefined {
  return typeof value === 'string' && /^data:image\/svg\+xml[;,]/i.test(value) ? value : undefined;
}

/** The certificate from `details`, wherever the tool puts it: at the top or under `certificate`. */
export function certificateFrom(details: Record<string, unknown> | undefined): MarkCertificate | undefined {
  if (!details) return undefined;
  for (const candidate of [details['certificate'], details]) {
    if (!candidate || typeof candidate !== 'object') continue;
    const parsed = MarkCertificate.safeParse(candidate);
    if (parsed.success && (parsed.data.serialNumber || parsed.data.fingerprint || parsed.data.organization)) return parsed.data;
  }
  return undefined;
}

export function formatDate(iso: string | null | undefined): string | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** Rows of the certificate table, in the order a reviewer reads them; empty fields are left out. */
export function certificateRows(certificate: MarkCertificate): { label: string; value: string }[] {
  const validity = [formatDate(certificate.validFrom), formatDate(certificate.validTo)];
  const daysLeft = certificate.daysLeft;
  const rows: [string, string | null | undefined][] = [
    ['Certificate type', certificate.certificateType === 'VMC' ? 'Verified Mark Certificate (VMC)' : certificate.certificateType === 'CMC' ? 'Common Mark Certificate (CMC)' : certificate.certificateType],
    ['Mark type', certificate.markType],
    ['Organization', certificate.organization],
    ['Common name', certificate.commonName],
    ['Domains (SANs)', certificate.subjectAltNames?.join(', ')],
    ['Issuer', certificate.issuerOrganization && certificate.issuer && !certificate.issuer.includes(certificate.issuerOrganization) ? `${certificate.issuer} (${certificate.issuerOrganization})` : (certificate.issuer ?? certificate.issuerOrganization)],
    ['Valid', validity[0] && validity[1] ? `${validity[0]} to ${validity[1]}` : (validity[0] ?? validity[1])],
    ['Days left', typeof daysLeft === 'number' ? (daysLeft < 0 ? `Expired ${-daysLeft} days ago` : String(daysLeft)) : undefined],
    ['Word mark', certificate.wordMark],
    ['Trademark office', [certificate.trademarkOffice, certificate.trademarkCountry].filter(Boolean).join(', ') || undefined],
    ['Registration number', certificate.trademarkRegistration],
    ['Serial number', certificate.serialNumber],
    ['Fingerprint', certificate.fingerprint],
    ['Logo hash', certificate.logoHash],
    ['Certificates in chain', typeof certificate.chainLength === 'number' ? String(certificate.chainLength) : undefined],
  ];
  return rows.flatMap(([label, value]) => (value ? [{ label, value }] : []));
}
