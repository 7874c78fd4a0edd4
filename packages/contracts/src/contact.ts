import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';
import { humanText, optionalHumanText } from './human-text';

/** What a visitor can write to us about; the value is stored, the label is shown in the form. */
export const CONTACT_TOPICS = [
  { value: 'sales', label: 'Buying a mark certificate' },
  { value: 'call', label: 'Schedule a call with a specialist' },
  { value: 'validation', label: 'Validation and documents' },
  { value: 'dmarc', label: 'DMARC enforcement plans' },
  { value: 'technical', label: 'BIMI record or logo setup' },
  { value: 'billing', label: 'Billing, renewals and refunds' },
  { value: 'partnership', label: 'Partnerships and resellers' },
  { value: 'other', label: 'Something else' },
] as const;

export type ContactTopic = (typeof CONTACT_TOPICS)[number]['value'];

const TOPIC_VALUES = CONTACT_TOPICS.map((topic) => topic.value) as [ContactTopic, ...ContactTopic[]];

export const CONTACT_LIMITS = {
  nameMax: 100,
  emailMax: 256,
  companyMax: 200,
  messageMin: 10,
  messageMax: 5000,
} as const;

/** The contact form, checked the same way in the browser and by POST /api/contact. */
export const ContactRequest = z.object({
  name: humanText({ label: 'Name', max: CONTACT_LIMITS.nameMax }),
  email: z
    .string({ error: 'Email is required' })
    .check(
      z.trim(),
      z.minLength(1, 'Email is required'),
      lengthLimit(CONTACT_LIMITS.emailMax, `Email must be at most ${CONTACT_LIMITS.emailMax} characters`),
      z.email('Enter a valid email address'),
    ),
  company: optionalHumanText({ label: 'Company', max: CONTACT_LIMITS.companyMax }),
  topic: z.enum(TOPIC_VALUES, { error: 'Choose a topic' }),
  message: humanText({ label: 'Message', min: CONTACT_LIMITS.messageMin, max: CONTACT_LIMITS.messageMax, multiline: true }),
});
export type ContactRequest = z.infer<typeof ContactRequest>;

/** The answer to a stored message: its reference, quoted back to the visitor. */
export const ContactReceipt = z.object({
  reference: z.string(),
  message: z.string(),
});
export type ContactReceipt = z.infer<typeof ContactReceipt>;
