import { ApiError, shownMessage } from '@bimi/contracts/api-error';
import { SITE_API_PATHS } from '@bimi/contracts/api-paths';
import { ContactReceipt, type ContactRequest } from '@bimi/contracts/contact';

export type SendResult = { ok: true; receipt: ContactReceipt } | { ok: false; message: string };

/** POST /api/contact; every failure comes back as a sentence the form can show. */
export async function sendContactMessage(message: ContactRequest): Promise<SendResult> {
  let response: Response;
  try {
    response = await fetch(SITE_API_PATHS.contact, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
  } catch {
    return { ok: false, message: 'We could not reach the server. Check your connection and try again.' };
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    const receipt = ContactReceipt.safeParse(body);
    if (receipt.success) return { ok: true, receipt: receipt.data };
  }
  if (response.status === 429) return { ok: false, message: 'You have sent several messages in a short time. Please wait a few minutes and try again.' };
  const error = ApiError.safeParse(body);
  if (response.status >= 400 && response.status < 500 && error.success) return { ok: false, message: shownMessage(error.data.message).text };
  return { ok: false, message: 'Something went wrong on our side and your message was not sent. Please try again in a moment.' };
}
