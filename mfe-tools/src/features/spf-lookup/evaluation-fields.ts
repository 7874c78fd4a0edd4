import { parseClientIp } from '@bimi/email-auth/spf-macro';
import type { FieldResult } from '../../lib/domain';
import type { ToolField } from '../../lib/useToolRun';

/**
 * The SPF lookup's optional question "would mail from this server pass?": the sending server's
 * address and the MAIL FROM address, checked in the browser with the words the bff uses.
 */

export function validateSendingIp(raw: string): FieldResult {
  const address = parseClientIp(raw);
  if (!address) return { ok: false, message: 'Please enter an IPv4 or IPv6 address, e.g., 192.0.2.10' };
  return { ok: true, value: address.toString() };
}

/** The MAIL FROM address (or only its domain); it means something only with the server's address. */
export function validateSender(raw: string, values: Readonly<Record<string, string>>): FieldResult {
  const sender = raw.trim();
  if (sender.length > 320) return { ok: false, message: 'The sender address is too long.' };
  if (!/^[^\s@]*@?[^\s@]+$/.test(sender)) return { ok: false, message: 'Please enter the MAIL FROM address, e.g., bounce@example.com' };
  if ((values.ip ?? '').trim() === '') return { ok: false, message: 'Give the IP address of the sending server to evaluate a sender.' };
  return { ok: true, value: sender };
}

export const SENDING_IP_FIELD: ToolField = {
  name: 'ip',
  label: 'Sending IP',
  validate: validateSendingIp,
  optional: true,
  placeholder: '192.0.2.10',
  helperText: 'Would mail from this server pass?',
};

export const SENDER_FIELD: ToolField = {
  name: 'sender',
  label: 'Sender',
  validate: validateSender,
  optional: true,
  placeholder: 'bounce@example.com',
  helperText: 'MAIL FROM; postmaster@ the domain if empty',
};
