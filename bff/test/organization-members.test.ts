import type { Member } from '@bimi/contracts/account';
import { Client } from 'pg';
import { Browser, linkFromOutbox, signedInUser, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(storageEngines())('organization members and invitations on $name', (engine) => {
  let store: IdentityStore;
  /** Jane owns Acme, Joe is a member of it, Eve is in no organization. */
  let jane: Browser;
  let joe: Browser;
  let eve: Browser;
  let acme: { id: string; name: string };
  let ids: Record<'jane' | 'joe' | 'eve', string>;

  async function join(owner: Browser, member: Browser, organizationId: string, email: string, role: 'owner' | 'member' = 'member'): Promise<void> {
    // A later mail than any earlier invitation, so the outbox hands back this one's link.
    store.advance(1000);
    expect((await owner.write('POST', `/api/account/organizations/${organizationId}/invites`, { email, role })).statusCode).toBe(201);
    const token = new URL(await linkFromOutbox(store.app, email, '/account/settings/organizations')).searchParams.get('invite');
    expect((await member.write('POST', '/api/account/invites/accept', { token })).statusCode).toBe(200);
  }

  async function members(browser: Browser, organizationId = acme.id): Promise<[string, string][]> {
    const answer = await browser.request({ url: `/api/account/organizations/${organizationId}/members` });
    expect(answer.statusCode).toBe(200);
    return (answer.json().members as Member[]).map((member) => [member.email, member.role]);
  }

  beforeEach(async () => {
    store = await startIdentityStore(engine);
    jane = await signedInUser(store, 'Jane', 'jane@example.com', '203.0.113.1');
    joe = await signedInUser(store, 'Joe', 'joe@example.com', '203.0.113.2');
    eve = await signedInUser(store, 'Eve', 'eve@example.com', '203.0.113.3');
    acme = (await jane.write('POST', '/api/account/organizations', { name: 'Acme' })).json();
    await join(jane, joe, acme.id, 'joe@example.com');
    const users = await store.app.db.selectFrom('users').select(['id', 'email']).execute();
    const idOf = (email: string) => users.find((user) => user.email === email)?.id ?? '';
    ids = { jane: idOf('jane@example.com'), joe: idOf('joe@example.com'), eve: idOf('eve@example.com') };
  });
  afterEach(async () => {
    await store.cleanUp();
  });

  /**
   * Starts each of `works` in turn while another PostgreSQL connection holds rows of the
   * organization (`lock` selects them for update), each once the ones before it wait behind the
   * holder; releases the rows when all wait, so the requests truly overlap in the database.
   */
  async function whileLocked<T>(lock: string, organizationId: string, works: (() => Promise<T>)[]): Promise<T[]> {
    const holder = new Client({ connectionString: store.app.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(lock, [organizationId]);
      const { rows } = await holder.query<{ pid: number }>('select pg_backend_pid() as pid');
      const holderPid = rows[0]?.pid;
      // Backends waiting on the holder, or on a backend that waits on it (a fresh look each time:
      // inside a transaction PostgreSQL otherwise answers from its first snapshot).
      const countWaiting = async () =>
        (await holder.query('select pg_stat_clear_snapshot()')) &&
        Number(
          (
            await holder.query<{ n: string }>(
              `select count(*) as n from pg_stat_activity a where a.wait_event_type = 'Lock' and ($1 = any(pg_blocking_pids(a.pid))
                 or exists (select 1 from pg_stat_activity b where b.pid = any(pg_blocking_pids(a.pid)) and $1 = any(pg_blocking_pids(b.pid))))`,
              [holderPid],
            )
          ).rows[0]?.n,
        );
      const running: Promise<T>[] = [];
      for (const work of works) {
        running.push(work());
        while ((await countWaiting()) < running.length) await new Promise((resolve) => setImmediate(resolve));
      }
      await holder.query('commit');
      return await Promise.all(running);
    } finally {
      await holder.end();
    }
  }

  it('names each member by userId in the member list', async () => {
    const answer = (await joe.request({ url: `/api/account/organizations/${acme.id}/members` })).json();
    expect(answer.members).toEqual([
      { userId: ids.jane, name: 'Jane', email: 'jane@example.com', role: 'owner', joinedAt: expect.any(String) },
      { userId: ids.joe, name: 'Joe', email: 'joe@example.com', role: 'member', joinedAt: expect.any(String) },
    ]);
  });

  it('lets an owner promote and demote members, and never demote the last owner', async () => {
    const promoted = await jane.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.joe}`, { role: 'owner' });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ userId: ids.joe, email: 'joe@example.com', role: 'owner' });
    expect((await joe.request({ url: '/api/account/organizations' })).json().organizations[0]).toMatchObject({ id: acme.id, role: 'owner' });

    // With two owners, Jane may step down; then she is a member and can no longer change roles.
    expect((await jane.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.jane}`, { role: 'member' })).json()).toMatchObject({ role: 'member' });
    expect(await members(jane)).toEqual([
      ['joe@example.com', 'owner'],
      ['jane@example.com', 'member'],
    ]);
    const notOwner = await jane.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.jane}`, { role: 'owner' });
    expect(notOwner.statusCode).toBe(403);
    expect(notOwner.json().message).toBe('Only owners of the organization can do this');

    // Joe is now the only owner.
    const lastOwner = await joe.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.joe}`, { role: 'member' });
    expect(lastOwner.statusCode).toBe(409);
    expect(lastOwner.json().message).toBe('You are the only owner of Acme. Make another member an owner first.');
    expect(await members(joe)).toEqual([
      ['joe@example.com', 'owner'],
      ['jane@example.com', 'member'],
    ]);
    // Setting the role a member already has changes nothing and is fine.
    expect((await joe.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.joe}`, { role: 'owner' })).statusCode).toBe(200);
  });

  it('refuses a role that does not exist and a member who is not in the organization', async () => {
    const admin = await jane.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.joe}`, { role: 'admin' });
    expect(admin.statusCode).toBe(400);
    expect(admin.json().message).toMatch(/^role: /);
    expect((await jane.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.joe}`, {})).statusCode).toBe(400);
    expect((await jane.write('PATCH', `/api/account/organizations/${acme.id}/members/not-an-id`, { role: 'owner' })).statusCode).toBe(400);
    const outsider = await jane.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.eve}`, { role: 'owner' });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().message).toBe('This person is not a member of the organization');
    expect((await jane.write('DELETE', `/api/account/organizations/${acme.id}/members/${UNKNOWN_ID}`)).statusCode).toBe(404);
    expect(await members(jane)).toEqual([
      ['jane@example.com', 'owner'],
      ['joe@example.com', 'member'],
    ]);
  });

  it('lets an owner remove a member, who then no longer sees the organization', async () => {
    expect((await jane.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.joe}`)).statusCode).toBe(204);
    expect(await members(jane)).toEqual([['jane@example.com', 'owner']]);
    expect((await joe.request({ url: `/api/account/organizations/${acme.id}/members` })).statusCode).toBe(404);
    expect((await joe.request({ url: '/api/account/organizations' })).json()).toEqual({ organizations: [] });
    expect((await jane.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.joe}`)).statusCode).toBe(404);
    // The last owner cannot remove herself.
    const self = await jane.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.jane}`);
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('You are the only owner of Acme. Make another member an owner before you leave.');
    expect((await jane.request({ url: '/api/account/organizations' })).json().organizations).toMatchObject([{ id: acme.id, memberCount: 1 }]);
  });

  it('lets a member leave, an owner leave when another owner remains, and never the last owner', async () => {
    expect((await joe.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.joe}`)).statusCode).toBe(204);
    expect((await joe.request({ url: '/api/account/organizations' })).json()).toEqual({ organizations: [] });
    expect(await members(jane)).toEqual([['jane@example.com', 'owner']]);

    const leave = await jane.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.jane}`);
    expect(leave.statusCode).toBe(409);
    expect(leave.json().message).toMatch(/only owner of Acme/);

    await join(jane, joe, acme.id, 'joe@example.com', 'owner');
    expect((await jane.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.jane}`)).statusCode).toBe(204);
    expect(await members(joe)).toEqual([['joe@example.com', 'owner']]);
    // Removing the last owner is refused as well, whoever asks.
    const removeLast = await joe.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.joe}`);
    expect(removeLast.statusCode).toBe(409);
  });

  it('keeps one owner when two owners step down at the same moment', async () => {
    await jane.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.joe}`, { role: 'owner' });
    const stepDown = [
      () => jane.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.jane}`, { role: 'member' }),
      () => joe.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.joe}`, { role: 'member' }),
    ];
    // SQLite runs one transaction at a time. On PostgreSQL, another connection holds both members'
    // rows until both requests are inside their transactions and waiting, so they truly overlap:
    // without the organization lock both would count two owners and both step down.
    const answers = engine.postgres
      ? await whileLocked('select role from organization_members where organization_id = $1 for update', acme.id, stepDown)
      : await Promise.all(stepDown.map((step) => step()));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect((await members(jane)).filter(([, role]) => role === 'owner')).toHaveLength(1);

    const [janeLeaves, joeLeaves] = await Promise.all([
      jane.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.jane}`),
      joe.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.joe}`),
    ]);
    // The member leaves; the owner, now alone, cannot.
    expect([janeLeaves.statusCode, joeLeaves.statusCode].sort()).toEqual([204, 409]);
    const left = await store.app.db.selectFrom('organization_members').select('role').where('organization_id', '=', acme.id).execute();
    expect(left).toEqual([{ role: 'owner' }]);
  });

  it('lets an owner demoted a moment ago act as an owner no more', async () => {
    await join(jane, eve, acme.id, 'eve@example.com');
    await jane.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.joe}`, { role: 'owner' });
    const steps = [
      () => joe.write('PATCH', `/api/account/organizations/${acme.id}/members/${ids.jane}`, { role: 'member' }),
      // Jane was an owner when her request came in, but Joe's demotion is first in line.
      () => jane.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.eve}`),
    ];
    const answers = [];
    if (engine.postgres) answers.push(...(await whileLocked('select id from organizations where id = $1 for update', acme.id, steps)));
    else for (const step of steps) answers.push(await step());
    // Joe's demotion done, Jane's removal of Eve refused.
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 403]);
    expect(await members(joe)).toEqual([
      ['joe@example.com', 'owner'],
      ['jane@example.com', 'member'],
      ['eve@example.com', 'member'],
    ]);
  });

  it('lists pending invitations to owners and lets them revoke one, whose link then stops working', async () => {
    const first = (await jane.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'ann@example.com', role: 'member' })).json();
    store.advance(1000);
    const second = (await jane.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'bob@example.com', role: 'owner' })).json();
    const listed = await jane.request({ url: `/api/account/organizations/${acme.id}/invites` });
    expect(listed.statusCode).toBe(200);
    // Joe's invitation was accepted, so it is no longer pending.
    expect(listed.json()).toEqual({ invites: [first, second] });

    expect((await jane.write('DELETE', `/api/account/organizations/${acme.id}/invites/${first.id}`)).statusCode).toBe(204);
    expect((await jane.request({ url: `/api/account/organizations/${acme.id}/invites` })).json()).toEqual({ invites: [second] });
    expect((await jane.request({ url: `/api/account/organizations/${acme.id}/members` })).json().invites).toEqual([second]);
    const again = await jane.write('DELETE', `/api/account/organizations/${acme.id}/invites/${first.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Invitation not found, or already accepted');

    const ann = await signedInUser(store, 'Ann', 'ann@example.com', '203.0.113.4');
    const token = new URL(await linkFromOutbox(store.app, 'ann@example.com', '/account/settings/organizations')).searchParams.get('invite');
    const revokedLink = await ann.write('POST', '/api/account/invites/accept', { token });
    expect(revokedLink.statusCode).toBe(400);
    expect((await ann.request({ url: '/api/account/organizations' })).json()).toEqual({ organizations: [] });

    // An accepted invitation is history, not revocable.
    const accepted = await store.app.db.selectFrom('organization_invites').select('id').where('email', '=', 'joe@example.com').executeTakeFirstOrThrow();
    expect((await jane.write('DELETE', `/api/account/organizations/${acme.id}/invites/${accepted.id}`)).statusCode).toBe(404);
    expect((await jane.write('DELETE', `/api/account/organizations/${acme.id}/invites/not-an-id`)).statusCode).toBe(400);
  });

  it('answers 404 to a non-member and 403 to a member for every owner action, and changes nothing', async () => {
    const invite = (await jane.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'ann@example.com', role: 'member' })).json();
    const ownerActions: [Browser, 'GET' | 'PATCH' | 'DELETE', string, unknown?][] = [];
    for (const browser of [eve, joe]) {
      ownerActions.push(
        [browser, 'PATCH', `/api/account/organizations/${acme.id}/members/${ids.jane}`, { role: 'member' }],
        [browser, 'PATCH', `/api/account/organizations/${acme.id}/members/${ids.joe}`, { role: 'owner' }],
        [browser, 'DELETE', `/api/account/organizations/${acme.id}/members/${ids.jane}`],
        [browser, 'GET', `/api/account/organizations/${acme.id}/invites`],
        [browser, 'DELETE', `/api/account/organizations/${acme.id}/invites/${invite.id}`],
      );
    }
    for (const [browser, method, url, body] of ownerActions) {
      const answer = method === 'GET' ? await browser.request({ url }) : await browser.write(method, url, body);
      const expected = browser === eve ? { status: 404, message: 'Organization not found' } : { status: 403, message: 'Only owners of the organization can do this' };
      expect([method, url, answer.statusCode, answer.json().message]).toEqual([method, url, expected.status, expected.message]);
    }
    // Eve cannot leave what she is not in either.
    expect((await eve.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.eve}`)).statusCode).toBe(404);
    expect(await members(jane)).toEqual([
      ['jane@example.com', 'owner'],
      ['joe@example.com', 'member'],
    ]);
    expect((await jane.request({ url: `/api/account/organizations/${acme.id}/invites` })).json()).toEqual({ invites: [invite] });
  });

  it('keeps each organization’s members and invitations to itself', async () => {
    // Jane owns Beta too, where Joe is not a member: Acme's member and invitation are not Beta's.
    const beta = (await jane.write('POST', '/api/account/organizations', { name: 'Beta' })).json();
    const acmeInvite = (await jane.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'ann@example.com', role: 'member' })).json();
    expect((await jane.write('PATCH', `/api/account/organizations/${beta.id}/members/${ids.joe}`, { role: 'owner' })).statusCode).toBe(404);
    expect((await jane.write('DELETE', `/api/account/organizations/${beta.id}/members/${ids.joe}`)).statusCode).toBe(404);
    expect((await jane.write('DELETE', `/api/account/organizations/${beta.id}/invites/${acmeInvite.id}`)).statusCode).toBe(404);
    expect((await jane.request({ url: `/api/account/organizations/${beta.id}/invites` })).json()).toEqual({ invites: [] });
    expect((await jane.request({ url: `/api/account/organizations/${acme.id}/invites` })).json()).toEqual({ invites: [acmeInvite] });
    expect(await members(jane)).toEqual([
      ['jane@example.com', 'owner'],
      ['joe@example.com', 'member'],
    ]);
    // An owner of Beta who is a mere member of Acme gains nothing in Acme from it.
    await join(jane, joe, beta.id, 'joe@example.com', 'owner');
    expect((await joe.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.jane}`)).statusCode).toBe(403);
  });

  it('answers 401 without a session and 403 without the CSRF header', async () => {
    const visitor = new Browser(store.app);
    expect((await visitor.request({ url: `/api/account/organizations/${acme.id}/invites` })).statusCode).toBe(401);
    expect((await visitor.write('DELETE', `/api/account/organizations/${acme.id}/members/${ids.joe}`)).statusCode).toBe(401);
    const noHeader = await jane.request({ method: 'DELETE', url: `/api/account/organizations/${acme.id}/members/${ids.joe}` });
    expect(noHeader.statusCode).toBe(403);
    expect(await members(jane)).toHaveLength(2);
  });
});
