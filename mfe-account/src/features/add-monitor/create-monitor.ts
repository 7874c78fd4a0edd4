import { shownMessage } from '@bimi/contracts/api-error';
import { CSRF_HEADER } from '@bimi/contracts/session';
import { MONITOR_PATHS, monitorCreateRequest, readMonitorDomain } from '@bimi/contracts/monitors';
import { normalizeDomainInput } from '@bimi/email-auth/domain-input';
import { csrfTokenForWrite, CsrfTokenUnavailable } from '@bimi/session/client';

/** Spec §5's {host}: the example in "Please enter a valid domain name (e.g., {host})". */
export const EXAMPLE_HOST = 'example.com';

/** The one schema of the monitor's domain (contracts), on the one domain rule (@bimi/email-auth). */
export const AddMonitorForm = monitorCreateRequest(normalizeDomainInput, EXAMPLE_HOST);

/** The typed domain as sent: lower-cased, scheme and trailing slash removed; or spec §5's message. */
export function checkMonitorDomain(typed: string): { ok: true; domain: string } | { ok: false; message: string } {
  const parsed = AddMonitorForm.safeParse({ domain: typed });
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? 'Please enter a domain name' };
  const read = readMonitorDomain(typed, normalizeDomainInput, EXAMPLE_HOST);
  return read.ok ? read : { ok: false, message: read.message };
}

/** Spec §8: shown when the server gives no message of its own. */
export const CREATE_FAILED_MESSAGE = 'Failed to create monitor. Please try again.';

/**
 * POST /api/account/monitors/create (spec §7): on failure only the `message` field is read; on
 * success only that it succeeded (the redirect uses the domain as sent).
 */
export async function createMonitor(domain: string): Promise<{ ok: true } | { ok: false; message: string; alreadyMonitored?: true }> {
  let token: string;
  try {
    token = await csrfTokenForWrite();
  } catch (error) {
    // No token, so no request the bff would refuse as forged: the service is unavailable (issue 31).
    return { ok: false, message: error instanceof CsrfTokenUnavailable ? error.message : CREATE_FAILED_MESSAGE };
  }
  try {
    const res = await fetch(MONITOR_PATHS.create, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/json', [CSRF_HEADER]: token },
      body: JSON.stringify({ domain }),
    });
    const data: unknown = await res.json().catch(() => null);
    if (res.ok) return { ok: true };
    const message =
      data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' && data.message.trim() ? shownMessage(data.message).text : CREATE_FAILED_MESSAGE;
    // 409: this account already monitors the domain (the modal then links to its monitor).
    return res.status === 409 ? { ok: false, message, alreadyMonitored: true } : { ok: false, message };
  } catch {
    return { ok: false, message: CREATE_FAILED_MESSAGE };
  }
}
