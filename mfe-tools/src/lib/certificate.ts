import type { MarkCertificate } from '@bimi/contracts/tools';

/**
 * The mark certificate a BIMI or VMC answer carries (`MarkCertificate` of @bimi/contracts/tools):
 * its facts as a reviewer reads them, and the logo the inbox preview shows.
 */

/** Only an SVG image as a data: URL is ever given to <img>; anything else is not shown. */
export function safeLogoUrl(value: string | undefined): string | undefined {
  return value !== undefined && /^data:image\/svg\+xml[;,]/i.test(value) ? value : undefined;
}

/** The logo of the inbox preview: the SVG published at the record's l= (what mailboxes fetch), else the one in the certificate. */
export function inboxLogo(published: string | undefined, certificate: MarkCertificate | undefined): string | undefined {
  return safeLogoUrl(published) ?? safeLogoUrl(certificate?.logoDataUrl);
}

export function formatDate(iso: string | null): string | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** Rows of the certificate table, in the order a reviewer reads them; empty fields are left out. */
export function certificateRows(certificate: MarkCertificate): { label: string; value: string }[] {
  const validity = [formatDate(certificate.validFrom), formatDate(certificate.validTo)];
  const rows: [string, string | undefined][] = [
    ['Certificate type', certificate.certificateType === 'VMC' ? 'Verified Mark Certificate (VMC)' : certificate.certificateType === 'CMC' ? 'Common Mark Certificate (CMC)' : undefined],
    ['Mark type', certificate.markType],
    ['Organization', certificate.organization],
    ['Common name', certificate.commonName],
    ['Domains (SANs)', certificate.subjectAltNames.join(', ')],
    [
      'Issuer',
      certificate.issuerOrganization && certificate.issuer && !certificate.issuer.includes(certificate.issuerOrganization)
        ? `${certificate.issuer} (${certificate.issuerOrganization})`
        : (certificate.issuer ?? certificate.issuerOrganization),
    ],
    ['Valid', validity[0] && validity[1] ? `${validity[0]} to ${validity[1]}` : (validity[0] ?? validity[1])],
    ['Days left', certificate.daysLeft < 0 ? `Expired ${-certificate.daysLeft} days ago` : String(certificate.daysLeft)],
    ['Word mark', certificate.wordMark],
    ['Trademark office', [certificate.trademarkOffice, certificate.trademarkCountry].filter(Boolean).join(', ') || undefined],
    ['Registration number', certificate.trademarkRegistration],
    ['Serial number', certificate.serialNumber],
    ['Fingerprint', certificate.fingerprint],
    ['Logo hash', certificate.logoHash],
    ['Certificates in chain', String(certificate.chainLength)],
  ];
  return rows.flatMap(([label, value]) => (value ? [{ label, value }] : []));
}
