import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';
import { Email, GivenPassword, LinkToken, NewPassword, PersonName } from './auth';
import { humanText, nullableHumanText } from './human-text';
import { nullablePhone } from './phone';

/**
 * The signed-in account API: every /api/account/* call answers 401 {message} without a session,
 * takes and answers JSON, and every write (POST, PUT, PATCH, DELETE) carries the header
 * `X-CSRF-Token` (CSRF_HEADER in auth.ts; the csrfToken of GET /api/auth/csrf), else 403.
 * A user only ever sees and changes their own data: another user's contact, ticket or
 * organization answers 404, as if it did not exist. Errors are {message}.
 *
 * - GET    /api/account/profile                              → Profile
 * - PATCH  /api/account/profile                   ProfileUpdate → Profile
 * - POST   /api/account/profile/email             EmailChangeRequest → 202 Profile (pendingEmail set;
 *                                                   a link to /auth/verify?token=… goes to the new address;
 *                                                   POST /api/auth/verify completes it and ends the user's other sessions);
 *                                                   400 wrong current password; 503 when the mail could not be sent
 *                                                   (nothing changed: retry). The same 202 when another account has the
 *                                                   address (it must not tell who has an account): its owner gets a
 *                                                   notice instead of a link, so the change is never confirmed
 * - POST   /api/account/profile/password          PasswordChangeRequest → 200 {message}; 400 wrong current password; ends every
 *                                                   other session of the user (this one continues under a new cookie)
 * - GET    /api/account/notifications                        → NotificationPreferences
 * - PUT    /api/account/notifications             NotificationPreferences → NotificationPreferences
 * - GET    /api/account/organizations                        → OrganizationList
 * - POST   /api/account/organizations             OrganizationCreate → 201 Organization (caller is owner)
 * - PATCH  /api/account/organizations/:id         OrganizationRename → Organization (owners only, else 403)
 * - GET    /api/account/organizations/:id/members            → OrganizationMembers (any member)
 * - PATCH  /api/account/organizations/:id/members/:userId MemberRoleUpdate → Member (owners only)
 * - DELETE /api/account/organizations/:id/members/:userId    → 204 (owners remove anyone; any member removes
 *                                                   themself, i.e. leaves); 404 not a member
 *                                                   The last owner can be neither demoted, removed nor leave: 409.
 * - GET    /api/account/organizations/:id/invites             → InviteList (pending invitations; owners only)
 * - POST   /api/account/organizations/:id/invites InviteCreate → 201 Invite (owners only; mails a link to
 *                                                   /account/settings/organizations?invite=…; 409 when already a member;
 *                                                   503 when the mail could not be sent: nothing saved, retry)
 * - DELETE /api/account/organizations/:id/invites/:inviteId → 204 (owners only; revokes a pending invitation, its link stops working)
 * - POST   /api/account/invites/accept            InviteAccept → Organization (the signed-in user's email must be the invited one)
 * Organization calls by a non-member answer 404; owner-only calls by a member answer 403.
 * - GET    /api/account/contacts                             → ContactList
 * - POST   /api/account/contacts                  ContactInput → 201 Contact
 * - PUT    /api/account/contacts/:id              ContactInput → Contact
 * - DELETE /api/account/contacts/:id                         → 204
 * - GET    /api/account/support/tickets                      → TicketList (newest first)
 * - POST   /api/account/support/tickets           TicketCreate → 201 Ticket
 */
export { ACCOUNT_PATHS } from './api-paths';

/** Where an invitation mail's link leads (query `invite`). */
export const INVITE_PAGE_PATH = '/account/settings/organizations';

/** Record ids are UUIDs. */
export const RecordId = z.string().check(lengthLimit(64, 'Not a valid id'), z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Not a valid id'));
/** ISO 8601 timestamps. */
const Timestamp = z.string();

// ---- profile ----

export const Profile = z.object({
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  /** An address waiting for its verification link to be followed, else null. */
  pendingEmail: z.nullable(z.string()),
  createdAt: Timestamp,
});
export type Profile = z.infer<typeof Profile>;

export const ProfileUpdate = z.object({ name: PersonName });
export type ProfileUpdate = z.infer<typeof ProfileUpdate>;

export const EmailChangeRequest = z.object({ newEmail: Email, currentPassword: GivenPassword });
export type EmailChangeRequest = z.infer<typeof EmailChangeRequest>;

export const PasswordChangeRequest = z.object({ currentPassword: GivenPassword, newPassword: NewPassword });
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequest>;

// ---- notifications ----

/** Which emails the user wants; a new account gets NOTIFICATION_DEFAULTS. */
export const NOTIFICATION_TOPICS = {
  orderUpdates: 'Order status updates',
  certificateExpiry: 'Certificate expiry reminders',
  monitorAlerts: 'Domain monitor alerts',
  billingReceipts: 'Billing receipts and payment problems',
  productNews: 'Product news and offers',
} as const;
export type NotificationTopic = keyof typeof NOTIFICATION_TOPICS;

export const NotificationPreferences = z.strictObject({
  orderUpdates: z.boolean(),
  certificateExpiry: z.boolean(),
  monitorAlerts: z.boolean(),
  billingReceipts: z.boolean(),
  productNews: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

export const NOTIFICATION_DEFAULTS: NotificationPreferences = {
  orderUpdates: true,
  certificateExpiry: true,
  monitorAlerts: true,
  billingReceipts: true,
  productNews: false,
};

// ---- organizations ----

export const OrganizationRole = z.enum(['owner', 'member']);
export type OrganizationRole = z.infer<typeof OrganizationRole>;

const OrganizationName = humanText({ label: 'Organization name', max: 200 });

export const Organization = z.object({
  id: z.string(),
  name: z.string(),
  /** The signed-in user's role in it. */
  role: OrganizationRole,
  memberCount: z.number(),
  createdAt: Timestamp,
});
export type Organization = z.infer<typeof Organization>;

export const OrganizationList = z.object({ organizations: z.array(Organization) });
export type OrganizationList = z.infer<typeof OrganizationList>;

export const OrganizationCreate = z.object({ name: OrganizationName });
export const OrganizationRename = z.object({ name: OrganizationName });

/** `userId` names the member in the member paths. */
export const Member = z.object({ userId: z.string(), name: z.string(), email: z.string(), role: OrganizationRole, joinedAt: Timestamp });
export type Member = z.infer<typeof Member>;

export const Invite = z.object({ id: z.string(), email: z.string(), role: OrganizationRole, createdAt: Timestamp, expiresAt: Timestamp });
export type Invite = z.infer<typeof Invite>;

/** Members, and the invitations not yet accepted (owners see them; members get an empty list). */
export const OrganizationMembers = z.object({ members: z.array(Member), invites: z.array(Invite) });
export type OrganizationMembers = z.infer<typeof OrganizationMembers>;

export const InviteList = z.object({ invites: z.array(Invite) });
export type InviteList = z.infer<typeof InviteList>;

export const MemberRoleUpdate = z.object({ role: OrganizationRole });
export type MemberRoleUpdate = z.infer<typeof MemberRoleUpdate>;

export const InviteCreate = z.object({ email: Email, role: OrganizationRole });
export type InviteCreate = z.infer<typeof InviteCreate>;

export const InviteAccept = z.object({ token: LinkToken });

/** An invitation link stays valid this long. */
export const INVITE_LIFETIME_DAYS = 7;

// ---- contacts ----

/** The keys of a map of labels as the list an enum takes: the labels and the schema cannot drift apart. */
function keysOf<Key extends string>(labels: Record<Key, string>): [Key, ...Key[]] {
  return Object.keys(labels) as [Key, ...Key[]];
}

/** The contacts the certificate authority reaches during validation. */
export const CONTACT_KINDS = { technical: 'Technical contact', billing: 'Billing contact', legal: 'Legal contact' } as const;
export const ContactKind = z.enum(keysOf(CONTACT_KINDS));
export type ContactKind = z.infer<typeof ContactKind>;

const optionalText = (label: string, max: number) => nullableHumanText({ label, max });

export const ContactInput = z.object({
  kind: ContactKind,
  name: PersonName,
  email: Email,
  /** A valid number (libphonenumber-js), stored in E.164: "not a phone" is refused here and in the browser alike. */
  phone: nullablePhone(),
  jobTitle: optionalText('Job title', 100),
  company: optionalText('Company', 200),
});
export type ContactInput = z.infer<typeof ContactInput>;

export const Contact = z.object({
  id: z.string(),
  kind: ContactKind,
  name: z.string(),
  email: z.string(),
  phone: z.nullable(z.string()),
  jobTitle: z.nullable(z.string()),
  company: z.nullable(z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Contact = z.infer<typeof Contact>;

export const ContactList = z.object({ contacts: z.array(Contact) });
export type ContactList = z.infer<typeof ContactList>;

// ---- support ----

export const TICKET_CATEGORIES = {
  order: 'An order',
  validation: 'Certificate validation',
  billing: 'Billing',
  technical: 'Technical question',
  other: 'Something else',
} as const;
export const TicketCategory = z.enum(keysOf(TICKET_CATEGORIES));
export type TicketCategory = z.infer<typeof TicketCategory>;

export const TicketCreate = z.object({
  category: TicketCategory,
  subject: humanText({ label: 'Subject', max: 200 }),
  message: humanText({ label: 'Message', min: 10, max: 5000, multiline: true }),
});
export type TicketCreate = z.infer<typeof TicketCreate>;

export const Ticket = z.object({
  id: z.string(),
  /** A short number to quote to support, e.g. "T-1A2B3C". */
  reference: z.string(),
  category: TicketCategory,
  subject: z.string(),
  message: z.string(),
  status: z.enum(['open', 'closed']),
  createdAt: Timestamp,
});
export type Ticket = z.infer<typeof Ticket>;

export const TicketList = z.object({ tickets: z.array(Ticket) });
export type TicketList = z.infer<typeof TicketList>;
