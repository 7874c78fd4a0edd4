import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';
import { Email, PersonName } from './auth';
import { humanText, optionalHumanText } from './human-text';
import { nullablePhone } from './phone';

/**
 * The partner programme's sign-up (POST /api/auth/partner-signup). Apart from auth.ts because its
 * phone check brings libphonenumber-js (about 34 KB gzip): the shell reads auth.ts on every page.
 */

const WebsiteUrl = z.string({ error: 'Website is required' }).check(
  z.trim(),
  z.minLength(1, 'Website is required'),
  lengthLimit(2048, 'Website must be at most 2048 characters'),
  // The URL parser drops tabs and line breaks silently: an address with any is refused, not repaired.
  z.refine((value) => !/[\s\p{C}]/u.test(value), { message: 'Enter a valid website address (e.g., https://example.com)', abort: true }),
  z.refine((value) => {
    try {
      const url = new URL(/^https?:\/\//i.test(value) ? value : `https://${value}`);
      return url.hostname.includes('.');
    } catch {
      return false;
    }
  }, 'Enter a valid website address (e.g., https://example.com)'),
);

export const PartnerSignUpRequest = z.object({
  company: humanText({ label: 'Company', max: 200 }),
  website: WebsiteUrl,
  contactName: PersonName,
  email: Email,
  phone: nullablePhone(),
  message: optionalHumanText({ label: 'Message', max: 4000, multiline: true }),
});
export type PartnerSignUpRequest = z.infer<typeof PartnerSignUpRequest>;
