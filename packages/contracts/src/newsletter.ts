import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';

/** Spec §5: the newsletter email is required, of email type and at most 256 characters. */
export const NewsletterEmail = z
  .string({ error: 'Email is required' })
  .check(z.trim(), z.minLength(1, 'Email is required'), lengthLimit(256, 'Email must be at most 256 characters'), z.email('Enter a valid email address'));

/** The subscribe call is made in cross-domain script style (JSONP): GET with the email and a callback name. */
export const NewsletterSubscribeQuery = z.object({
  email: NewsletterEmail,
  // A name of our callers' own making, never one that already means something in the page (`eval`,
  // `alert`, `location`): `cb`, `jsonp` or the shell's `__newsletter_cb`, each with up to three
  // `_part`s, at most 64 characters (issue 31).
  c: z.string().check(lengthLimit(64, 'Invalid callback name'), z.regex(/^(?:cb|jsonp|__newsletter_cb)(?:_[A-Za-z0-9]{1,20}){0,3}$/, 'Invalid callback name')),
});

/** The provider's answer handed to the callback: `result` equal to success is success (spec §7). */
export const NewsletterResult = z.object({
  result: z.enum(['success', 'error']),
  msg: z.string(),
});
export type NewsletterResult = z.infer<typeof NewsletterResult>;
