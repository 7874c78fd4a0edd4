import * as z from 'zod/mini';

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
  name: z
    .string({ error: 'Name is required' })
    .check(z.trim(), z.minLength(1, 'Name is required'), z.maxLength(CONTACT_LIMITS.nameMax, `Name must be at most ${CONTACT_LIMITS.nameMax} characters`)),
  email: z
    .string({ error: 'Email is required' })
    .check(
      z.trim(),
      z.minLength(1, 'Email is required'),
      z.maxLength(CONTACT_LIMITS.emailMax, `Email must be at most ${CONTACT_LIMITS.emailMax} characters`),
      z.email('Enter a valid email address'),
    ),
  company: z.optional(
    z.string().check(z.trim(), z.maxLength(CONTACT_LIMITS.companyMax, `Company must be at most ${CONTACT_LIMITS.companyMax} characters`)),
  ),
  topic: z.enum(TOPIC_VALUES, { error: 'Choose a topic' }),
  message: z
    .string({ error: 'Message is required' })
    .check(
      z.trim(),
      z.minLength(CONTACT_LIMITS.messageMin, `Message must be at least ${CONTACT_LIMITS.messageMin} characters`),
      z.maxLength(CONTACT_LIMITS.messageMax, `Message must be at most ${CONTACT_LIMITS.messageMax} characters`),
    ),
});
export type ContactRequest = z.infer<typeof ContactRequest>;

/** The answer to a stored message: its reference, quoted back to the visitor. */
export const ContactReceipt = z.object({
  reference: z.string(),
  message: z.string(),
});
export type ContactReceipt = z.infer<typeof ContactReceipt>;
