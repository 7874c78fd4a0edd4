import { safeLogoUrl } from './certificate';

/**
 * The logo a BIMI or VMC answer carries, as a data: URL for <img>: the SVG published at the
 * record's l= (preferred: it is what mailboxes fetch), else the one inside the certificate.
 */
export function logoFrom(details: Record<string, unknown> | undefined): string | undefined {
  if (!details) return undefined;
  const nested = (key: string) => {
    const value = details[key];
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  };
  const candidates = [
    details['logoDataUrl'],
    nested('logo')?.['dataUrl'],
    nested('logo')?.['logoDataUrl'],
    nested('svg')?.['dataUrl'],
    nested('certificate')?.['logoDataUrl'],
  ];
  for (const candidate of candidates) {
    const url = safeLogoUrl(candidate);
    if (url) return url;
  }
  return undefined;
}
