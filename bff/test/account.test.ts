import { NOTIFICATION_DEFAULTS } from '@bimi/contracts/account';
import { Browser, GOOD_PASSWORD, linkFromOutbox, signedInUser, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

const CONTACT = { kind: 'technical', name: 'Tess Tech', email: 'tess@acme.example', phone: '+12025550143', jobTitle: 'CTO', company: 'Acme' };
const TICKET = { category: 'validation', subject: 'Logo rejected', message: 'Our SVG logo was rejected during validation.' };

describe.each(storageEngines())('/api/account on $name', (engine) => {
  let store: IdentityStore;
  let jane: Browser;
  let joe: Browser;
  beforeEach(async () => {
    store = await startIdentityStore(engine);
    jane = await signedInUser(store, 'Jane Doe', 'jane@example.com', '203.0.113.1');
    joe = await signedInUser(store, 'Joe Bloggs', 'joe@example.com', '203.0.113.2');
  });
  afterEach(async () => {
    await store.cleanUp();
  });

  it('answers 401 to every call without a session, and changes nothing', async () => {
    const visitor = new Browser(store.app);
    const token = await visitor.csrfToken();
    const calls: [string, string][] = [
      ['GET', '/api/account/profile'],
      ['PATCH', '/api/account/profile'],
      ['POST', '/api/account/profile/email'],
      ['POST', '/api/account/profile/password'],
      ['GET', '/api/account/notifications'],
      ['PUT', '/api/account/notifications'],
      ['GET', '/api/account/organizations'],
      ['POST', '/api/account/organizations'],
      ['POST', '/api/account/invites/accept'],
      ['PATCH', '/api/account/organizations/00000000-0000-4000-8000-000000000000/members/00000000-0000-4000-8000-000000000001'],
      ['DELETE', '/api/account/organizations/00000000-0000-4000-8000-000000000000/members/00000000-0000-4000-8000-000000000001'],
      ['GET', '/api/account/organizations/00000000-0000-4000-8000-000000000000/invites'],
      ['DELETE', '/api/account/organizations/00000000-0000-4000-8000-000000000000/invites/00000000-0000-4000-8000-000000000001'],
      ['GET', '/api/account/contacts'],
      ['POST', '/api/account/contacts'],
      ['DELETE', '/api/account/contacts/00000000-0000-4000-8000-000000000000'],
      ['GET', '/api/account/support/tickets'],
      ['POST', '/api/account/support/tickets'],
      ['POST', '/api/account/monitors/create'],
      ['GET', '/api/account/anything-else'],
    ];
    for (const [method, url] of calls) {
      const response = await visitor.request({ method, url, json: {}, headers: { 'x-csrf-token': token } });
      expect([method, url, response.statusCode]).toEqual([method, url, 401]);
      expect(response.json()).toEqual({ message: 'Sign in to continue' });
    }
  });

  describe('profile', () => {
    it('reads and renames, refusing an empty name', async () => {
      expect((await jane.request({ url: '/api/account/profile' })).json()).toMatchObject({ name: 'Jane Doe', email: 'jane@example.com', emailVerified: true, pendingEmail: null });
      const renamed = await jane.write('PATCH', '/api/account/profile', { name: '  Jane Q. Doe ' });
      expect(renamed.json()).toMatchObject({ name: 'Jane Q. Doe' });
      const empty = await jane.write('PATCH', '/api/account/profile', { name: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('name: Name is required');
      expect((await jane.session()).user).toMatchObject({ name: 'Jane Q. Doe' });
    });

    it('changes the email only after the new address is verified', async () => {
      const wrongPassword = await jane.write('POST', '/api/account/profile/email', { newEmail: 'jane@new.example', currentPassword: 'not my password 1' });
      expect(wrongPassword.statusCode).toBe(400);
      // Another account's address: answered as any other (it must not tell who has an account);
      // its owner gets a notice and no link, so Jane can never confirm it.
      const taken = await jane.write('POST', '/api/account/profile/email', { newEmail: 'joe@example.com', currentPassword: GOOD_PASSWORD });
      expect(taken.statusCode).toBe(202);
      expect(taken.json()).toMatchObject({ email: 'jane@example.com', pendingEmail: 'joe@example.com' });
      const toJoe = await store.app.db.selectFrom('outbox_messages').select(['subject', 'text']).where('recipient', '=', 'joe@example.com').execute();
      const notices = toJoe.filter((mail) => mail.subject === 'Someone asked to use your address for another BIMI Store account');
      expect(notices).toHaveLength(1);
      expect(notices[0]?.text).not.toContain('/auth/verify');
      const tokens = await store.app.db.selectFrom('email_tokens').select('email').where('purpose', '=', 'email-change').where('email', '=', 'joe@example.com').execute();
      expect(tokens).toEqual([]);
      const asked = await jane.write('POST', '/api/account/profile/email', { newEmail: 'Jane@New.example', currentPassword: GOOD_PASSWORD });
      expect(asked.statusCode).toBe(202);
      expect(asked.json()).toMatchObject({ email: 'jane@example.com', pendingEmail: 'jane@new.example' });
      const token = new URL(await linkFromOutbox(store.app, 'jane@new.example', '/auth/verify')).searchParams.get('token');
      const verified = await jane.write('POST', '/api/auth/verify', { token });
      expect(verified.json()).toMatchObject({ purpose: 'email-change', email: 'jane@new.example' });
      expect((await jane.request({ url: '/api/account/profile' })).json()).toMatchObject({ email: 'jane@new.example', pendingEmail: null });
      expect((await new Browser(store.app, '203.0.113.50').signIn('jane@new.example', GOOD_PASSWORD)).statusCode).toBe(200);
    });

    it('changes the password only with the current one, and only to a strong one', async () => {
      expect((await jane.write('POST', '/api/account/profile/password', { currentPassword: 'wrong one 1', newPassword: 'new strong secret 5' })).statusCode).toBe(400);
      const weak = await jane.write('POST', '/api/account/profile/password', { currentPassword: GOOD_PASSWORD, newPassword: 'weak' });
      expect(weak.statusCode).toBe(400);
      expect(weak.json().message).toMatch(/^newPassword: Password must be at least 10 characters/);
      expect((await jane.write('POST', '/api/account/profile/password', { currentPassword: GOOD_PASSWORD, newPassword: 'new strong secret 5' })).statusCode).toBe(200);
      expect((await new Browser(store.app, '203.0.113.51').signIn('jane@example.com', 'new strong secret 5')).statusCode).toBe(200);
    });
  });

  it('keeps notification preferences per user and refuses unknown or missing topics', async () => {
    expect((await jane.request({ url: '/api/account/notifications' })).json()).toEqual(NOTIFICATION_DEFAULTS);
    const chosen = { ...NOTIFICATION_DEFAULTS, productNews: true, monitorAlerts: false };
    expect((await jane.write('PUT', '/api/account/notifications', chosen)).json()).toEqual(chosen);
    expect((await jane.write('PUT', '/api/account/notifications', { ...chosen, spam: true })).statusCode).toBe(400);
    expect((await jane.write('PUT', '/api/account/notifications', { orderUpdates: true })).statusCode).toBe(400);
    expect((await jane.request({ url: '/api/account/notifications' })).json()).toEqual(chosen);
    expect((await joe.request({ url: '/api/account/notifications' })).json()).toEqual(NOTIFICATION_DEFAULTS);
  });

  describe('organizations', () => {
    it('creates, renames, invites by email, and the invitee accepts from the mailed link', async () => {
      const created = await jane.write('POST', '/api/account/organizations', { name: 'Acme' });
      expect(created.statusCode).toBe(201);
      const acme = created.json();
      expect(acme).toMatchObject({ name: 'Acme', role: 'owner', memberCount: 1 });
      expect((await jane.write('PATCH', `/api/account/organizations/${acme.id}`, { name: 'Acme Inc' })).json()).toMatchObject({ name: 'Acme Inc' });
      expect((await jane.write('POST', '/api/account/organizations', { name: ' ' })).statusCode).toBe(400);

      const invite = await jane.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'joe@example.com', role: 'member' });
      expect(invite.statusCode).toBe(201);
      expect((await jane.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'jane@example.com', role: 'member' })).statusCode).toBe(409);
      expect((await jane.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'x@example.com', role: 'admin' })).statusCode).toBe(400);

      // Joe cannot see the organization before he accepts.
      expect((await joe.request({ url: `/api/account/organizations/${acme.id}/members` })).statusCode).toBe(404);
      const link = new URL(await linkFromOutbox(store.app, 'joe@example.com', '/account/settings/organizations'));
      // Only the invited address can accept.
      const other = await signedInUser(store, 'Eve', 'eve@example.com', '203.0.113.3');
      expect((await other.write('POST', '/api/account/invites/accept', { token: link.searchParams.get('invite') })).statusCode).toBe(403);
      const accepted = await joe.write('POST', '/api/account/invites/accept', { token: link.searchParams.get('invite') });
      expect(accepted.json()).toMatchObject({ id: acme.id, role: 'member', memberCount: 2 });
      expect((await joe.write('POST', '/api/account/invites/accept', { token: link.searchParams.get('invite') })).statusCode).toBe(400);

      const members = (await joe.request({ url: `/api/account/organizations/${acme.id}/members` })).json();
      expect(members.members.map((member: { email: string; role: string }) => [member.email, member.role])).toEqual([
        ['jane@example.com', 'owner'],
        ['joe@example.com', 'member'],
      ]);
      expect(members.invites).toEqual([]);
      // Members neither rename nor invite.
      expect((await joe.write('PATCH', `/api/account/organizations/${acme.id}`, { name: 'Joe Corp' })).statusCode).toBe(403);
      expect((await joe.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'z@example.com', role: 'owner' })).statusCode).toBe(403);
      expect((await jane.request({ url: '/api/account/organizations' })).json().organizations).toHaveLength(1);
    });

    it('hides another user’s organization as if it did not exist', async () => {
      const acme = (await jane.write('POST', '/api/account/organizations', { name: 'Acme' })).json();
      expect((await joe.request({ url: '/api/account/organizations' })).json()).toEqual({ organizations: [] });
      expect((await joe.request({ url: `/api/account/organizations/${acme.id}/members` })).statusCode).toBe(404);
      expect((await joe.write('PATCH', `/api/account/organizations/${acme.id}`, { name: 'Mine now' })).statusCode).toBe(404);
      expect((await joe.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'joe2@example.com', role: 'owner' })).statusCode).toBe(404);
      expect((await joe.request({ url: '/api/account/organizations/not-an-id/members' })).statusCode).toBe(400);
      expect((await jane.request({ url: '/api/account/organizations' })).json().organizations[0].name).toBe('Acme');
    });
  });

  describe('contacts', () => {
    it('creates, lists, updates and deletes, with clear errors for bad input', async () => {
      const created = await jane.write('POST', '/api/account/contacts', CONTACT);
      expect(created.statusCode).toBe(201);
      const contact = created.json();
      expect(contact).toMatchObject({ ...CONTACT });
      const bad = await jane.write('POST', '/api/account/contacts', { ...CONTACT, kind: 'sales', email: 'nope' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/kind: .*; email: Enter a valid email address/);
      const updated = await jane.write('PUT', `/api/account/contacts/${contact.id}`, { ...CONTACT, kind: 'legal', phone: null });
      expect(updated.json()).toMatchObject({ kind: 'legal', phone: null });
      expect((await jane.request({ url: '/api/account/contacts' })).json().contacts).toHaveLength(1);
      expect((await jane.write('DELETE', `/api/account/contacts/${contact.id}`)).statusCode).toBe(204);
      expect((await jane.write('DELETE', `/api/account/contacts/${contact.id}`)).statusCode).toBe(404);
    });

    it('never lets another user read, change or delete them', async () => {
      const contact = (await jane.write('POST', '/api/account/contacts', CONTACT)).json();
      expect((await joe.request({ url: '/api/account/contacts' })).json()).toEqual({ contacts: [] });
      expect((await joe.write('PUT', `/api/account/contacts/${contact.id}`, { ...CONTACT, name: 'Hijacked' })).statusCode).toBe(404);
      expect((await joe.write('DELETE', `/api/account/contacts/${contact.id}`)).statusCode).toBe(404);
      expect((await jane.request({ url: '/api/account/contacts' })).json().contacts).toEqual([contact]);
    });
  });

  describe('support tickets', () => {
    it('opens a ticket with a reference and lists only the user’s own, newest first', async () => {
      const first = await jane.write('POST', '/api/account/support/tickets', TICKET);
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({ ...TICKET, status: 'open', reference: expect.stringMatching(/^T-[0-9A-F]{6}$/) });
      store.advance(1000);
      await jane.write('POST', '/api/account/support/tickets', { ...TICKET, subject: 'Second' });
      expect((await jane.request({ url: '/api/account/support/tickets' })).json().tickets.map((ticket: { subject: string }) => ticket.subject)).toEqual(['Second', 'Logo rejected']);
      expect((await joe.request({ url: '/api/account/support/tickets' })).json()).toEqual({ tickets: [] });
      const short = await jane.write('POST', '/api/account/support/tickets', { ...TICKET, message: 'help' });
      expect(short.statusCode).toBe(400);
      expect(short.json().message).toBe('message: Message must be at least 10 characters');
    });
  });
});
