import type { Check } from '@bimi/contracts/tools';
import { fail, unreachable } from '@bimi/email-auth/checks';
import { FetchRefusedError, type FetchedResource, type FetchLimits, type ToolIo } from './ports';

/**
 * Fetching what a BIMI record publishes (the logo at l=, the mark certificate at a=) for the BIMI
 * and VMC tools: the limits of each fetch, and a failed fetch as the check that says why.
 */

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

const UNREACHABLE_REASONS = new Set<FetchRefusedError['reason']>(['dns', 'timeout', 'network']);

/** A failed fetch as a check: what was refused or failed, in words, and what to change. */
function fetchFailureCheck(id: string, what: string, error: unknown): Check {
  const refused = error instanceof FetchRefusedError ? error : new FetchRefusedError('network', String(error));
  // Not answering is not being wrong: a host we could not resolve or reach is `unreachable` (try again).
  if (UNREACHABLE_REASONS.has(refused.reason)) return unreachable(id, `${what} could not be reached`, refused.message, FETCH_FIXES[refused.reason]);
  return fail(id, `${what} could not be fetched`, refused.message, FETCH_FIXES[refused.reason]);
}

export type PublishedFile = { file?: FetchedResource; check?: Check };

/** The file at `url`, or the check that says why it could not be had; neither when there is no address to fetch. */
export async function fetchOrCheck(io: ToolIo, url: string | undefined, limits: FetchLimits, id: string, what: string): Promise<PublishedFile> {
  if (!url) return {};
  try {
    return { file: await io.fetch(url, limits) };
  } catch (error) {
    return { check: fetchFailureCheck(id, what, error) };
  }
}

/** Only https addresses are fetched; other values already fail the record's own checks. */
export function httpsAddress(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}
