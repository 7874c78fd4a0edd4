import {
  INVITE_LIFETIME_DAYS,
  Invite,
  InviteAccept,
  InviteCreate,
  InviteList,
  Member,
  MemberRoleUpdate,
  Organization,
  OrganizationCreate,
  OrganizationList,
  OrganizationMembers,
  OrganizationRename,
  RecordId,
} from '@bimi/contracts/account';
import { ApiError } from '@bimi/contracts/api-error';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SqliteAdapter, type Kysely, type Transaction } from 'kysely';
import { z } from 'zod';
import { publicBaseUrl } from '../../../config';
import { HttpError } from '../../../lib/http-error';
import { invitationMail } from '../../../lib/mail-texts';
import { hashToken, newId, newLinkToken } from '../../../lib/tokens';
import type { StoreDatabase } from '../../../db/schema';
import { currentUser } from './current-user';

const DAY = 24 * 60 * 60 * 1000;
const OrganizationParams = z.object({ id: RecordId });
const MemberParams = z.object({ id: RecordId, userId: RecordId });
const InviteParams = z.object({ id: RecordId, inviteId: RecordId });
const NOT_FOUND = 'Organization not found';
const NOT_OWNER = 'Only owners of the organization can do this';
const MEMBER_NOT_FOUND = 'This person is not a member of the organization';

/**
 * Holds the organization's row until the transaction ends, so two owners changing members at the
 * same time take turns and cannot both step down and leave it without an owner. SQLite needs no
 * lock: its one connection runs one transaction at a time.
 */
async function lockOrganization(trx: Transaction<StoreDatabase>, db: Kysely<StoreDatabase>, organizationId: string): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute();
}

/**
 * Organizations: create, rename, members and invitations by email, roles owner and member.
 * Only members see an organization (others get 404, as if it did not exist); only owners
 * rename it, invite, revoke invitations, change roles and remove members; any member may leave.
 * An organization always keeps at least one owner.
 */
const organizations: FastifyPluginAsyncZod = async (fastify) => {
  const iso = (offset = 0) => new Date(fastify.now() + offset).toISOString();

  /** The organizations `userId` belongs to, with their role in each and the number of members. */
  function organizationsOf(userId: string) {
    return fastify.db
      .selectFrom('organization_members as mine')
      .innerJoin('organizations', 'organizations.id', 'mine.organization_id')
      .select((eb) => [
        'organizations.id',
        'organizations.name',
        'organizations.created_at',
        'mine.role',
        eb.selectFrom('organization_members as all').select((count) => count.fn.countAll<number>().as('n')).whereRef('all.organization_id', '=', 'organizations.id').as('member_count'),
      ])
      .where('mine.user_id', '=', userId);
  }

  function toOrganization(row: { id: string; name: string; role: Organization['role']; member_count: number | null; created_at: string }): Organization {
    return { id: row.id, name: row.name, role: row.role, memberCount: Number(row.member_count ?? 0), createdAt: row.created_at };
  }

  async function organizationFor(userId: string, organizationId: string): Promise<Organization | undefined> {
    const row = await organizationsOf(userId).where('organizations.id', '=', organizationId).executeTakeFirst();
    return row && toOrganization(row);
  }

  /** The people in an organization, with their names and addresses. */
  function membersOf(organizationId: string) {
    return fastify.db
      .selectFrom('organization_members')
      .innerJoin('users', 'users.id', 'organization_members.user_id')
      .select(['users.id', 'users.name', 'users.email', 'organization_members.role', 'organization_members.joined_at'])
      .where('organization_members.organization_id', '=', organizationId);
  }

  function toMember(row: { id: string; name: string; email: string; role: Member['role']; joined_at: string }): Member {
    return { userId: row.id, name: row.name, email: row.email, role: row.role, joinedAt: row.joined_at };
  }

  async function requireRole(userId: string, organizationId: string, role: 'owner' | 'member'): Promise<Organization> {
    const organization = await organizationFor(userId, organizationId);
    if (!organization) throw new HttpError(404, NOT_FOUND);
    if (role === 'owner' && organization.role !== 'owner') throw new HttpError(403, NOT_OWNER);
    return organization;
  }

  fastify.get('/api/account/organizations', { schema: { response: { 200: OrganizationList } } }, async (request) => {
    const rows = await organizationsOf(currentUser(request).id).execute();
    return { organizations: rows.map(toOrganization).sort((a, b) => a.name.localeCompare(b.name)) };
  });

  fastify.post('/api/account/organizations', { schema: { body: OrganizationCreate, response: { 201: Organization } } }, async (request, reply) => {
    const user = currentUser(request);
    const id = newId();
    await fastify.db.transaction().execute(async (trx) => {
      await trx.insertInto('organizations').values({ id, name: request.body.name, created_at: iso() }).execute();
      await trx.insertInto('organization_members').values({ organization_id: id, user_id: user.id, role: 'owner', joined_at: iso() }).execute();
    });
    return reply.code(201).send(await requireRole(user.id, id, 'owner'));
  });

  fastify.patch('/api/account/organizations/:id', { schema: { params: OrganizationParams, body: OrganizationRename, response: { 200: Organization } } }, async (request) => {
    const user = currentUser(request);
    await requireRole(user.id, request.params.id, 'owner');
    await fastify.db.updateTable('organizations').set({ name: request.body.name }).where('id', '=', request.params.id).execute();
    return requireRole(user.id, request.params.id, 'owner');
  });

  fastify.get('/api/account/organizations/:id/members', { schema: { params: OrganizationParams, response: { 200: OrganizationMembers } } }, async (request) => {
    const user = currentUser(request);
    const organization = await requireRole(user.id, request.params.id, 'member');
    const members = await membersOf(organization.id)
      // Owners first, then by arrival.
      .orderBy('organization_members.role', 'desc')
      .orderBy('organization_members.joined_at')
      .orderBy('users.email')
      .execute();
    return {
      members: members.map(toMember),
      invites: organization.role === 'owner' ? await pendingInvites(organization.id) : [],
    };
  });

  async function pendingInvites(organizationId: string): Promise<Invite[]> {
    const invites = await fastify.db
      .selectFrom('organization_invites')
      .select(['id', 'email', 'role', 'created_at', 'expires_at'])
      .where('organization_id', '=', organizationId)
      .where('accepted_at', 'is', null)
      .where('expires_at', '>', iso())
      .orderBy('created_at')
      .execute();
    return invites.map((invite) => ({ id: invite.id, email: invite.email, role: invite.role, createdAt: invite.created_at, expiresAt: invite.expires_at }));
  }

  async function loadMember(organizationId: string, userId: string): Promise<Member> {
    const member = await membersOf(organizationId).where('organization_members.user_id', '=', userId).executeTakeFirst();
    if (!member) throw new HttpError(404, MEMBER_NOT_FOUND);
    return toMember(member);
  }

  /**
   * Runs `actor`'s change of `userId`'s membership under the organization's lock, refusing (409)
   * when it would leave the organization without an owner: `change` returns whether the member
   * stays an owner. The actor's own role is checked again under the lock, so an owner demoted a
   * moment ago cannot still act as one.
   */
  async function changeMembership(
    organization: Organization,
    actor: { id: string; mustOwn: boolean },
    userId: string,
    change: (trx: Transaction<StoreDatabase>) => Promise<{ staysOwner: boolean }>,
    refusal: string,
  ): Promise<void> {
    await fastify.db.transaction().execute(async (trx) => {
      await lockOrganization(trx, fastify.db, organization.id);
      const actorRole = await trx.selectFrom('organization_members').select('role').where('organization_id', '=', organization.id).where('user_id', '=', actor.id).executeTakeFirst();
      if (!actorRole) throw new HttpError(404, NOT_FOUND);
      if (actor.mustOwn && actorRole.role !== 'owner') throw new HttpError(403, NOT_OWNER);
      const target = await trx.selectFrom('organization_members').select('role').where('organization_id', '=', organization.id).where('user_id', '=', userId).executeTakeFirst();
      if (!target) throw new HttpError(404, MEMBER_NOT_FOUND);
      const owners = await trx
        .selectFrom('organization_members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', organization.id)
        .where('role', '=', 'owner')
        .executeTakeFirstOrThrow();
      const { staysOwner } = await change(trx);
      if (target.role === 'owner' && !staysOwner && Number(owners.n) <= 1) throw new HttpError(409, refusal);
    });
  }

  fastify.patch(
    '/api/account/organizations/:id/members/:userId',
    { schema: { params: MemberParams, body: MemberRoleUpdate, response: { 200: Member } } },
    async (request) => {
      const user = currentUser(request);
      const organization = await requireRole(user.id, request.params.id, 'owner');
      const { userId } = request.params;
      const { role } = request.body;
      await changeMembership(
        organization,
        { id: user.id, mustOwn: true },
        userId,
        async (trx) => {
          await trx.updateTable('organization_members').set({ role }).where('organization_id', '=', organization.id).where('user_id', '=', userId).execute();
          return { staysOwner: role === 'owner' };
        },
        `${userId === user.id ? 'You are' : 'This member is'} the only owner of ${organization.name}. Make another member an owner first.`,
      );
      return loadMember(organization.id, userId);
    },
  );

  fastify.delete('/api/account/organizations/:id/members/:userId', { schema: { params: MemberParams } }, async (request, reply) => {
    const user = currentUser(request);
    const leaving = request.params.userId === user.id;
    // Anyone may leave; only owners remove others.
    const organization = await requireRole(user.id, request.params.id, leaving ? 'member' : 'owner');
    await changeMembership(
      organization,
      { id: user.id, mustOwn: !leaving },
      request.params.userId,
      async (trx) => {
        await trx.deleteFrom('organization_members').where('organization_id', '=', organization.id).where('user_id', '=', request.params.userId).execute();
        return { staysOwner: false };
      },
      leaving
        ? `You are the only owner of ${organization.name}. Make another member an owner before you leave.`
        : `This member is the only owner of ${organization.name}. Make another member an owner first.`,
    );
    request.log.info({ organizationId: organization.id, userId: request.params.userId, by: user.id }, leaving ? 'member left an organization' : 'member removed from an organization');
    return reply.code(204).send();
  });

  fastify.get('/api/account/organizations/:id/invites', { schema: { params: OrganizationParams, response: { 200: InviteList } } }, async (request) => {
    const organization = await requireRole(currentUser(request).id, request.params.id, 'owner');
    return { invites: await pendingInvites(organization.id) };
  });

  fastify.delete('/api/account/organizations/:id/invites/:inviteId', { schema: { params: InviteParams } }, async (request, reply) => {
    const organization = await requireRole(currentUser(request).id, request.params.id, 'owner');
    const revoked = await fastify.db
      .deleteFrom('organization_invites')
      .where('id', '=', request.params.inviteId)
      .where('organization_id', '=', organization.id)
      .where('accepted_at', 'is', null)
      .executeTakeFirst();
    if (Number(revoked.numDeletedRows) !== 1) throw new HttpError(404, 'Invitation not found, or already accepted');
    return reply.code(204).send();
  });

  fastify.post(
    '/api/account/organizations/:id/invites',
    { schema: { params: OrganizationParams, body: InviteCreate, response: { 201: Invite, 503: ApiError } }, config: { rateLimit: { max: 30, timeWindow: '1 hour' } } },
    async (request, reply) => {
      const user = currentUser(request);
      const organization = await requireRole(user.id, request.params.id, 'owner');
      const { email, role } = request.body;
      const alreadyMember = await membersOf(organization.id).where('users.email', '=', email).executeTakeFirst();
      if (alreadyMember) throw new HttpError(409, `email: ${email} is already a member of ${organization.name}`);
      const { token, tokenHash } = newLinkToken();
      const invite = { id: newId(), email, role, createdAt: iso(), expiresAt: iso(INVITE_LIFETIME_DAYS * DAY) };
      await fastify.db
        .insertInto('organization_invites')
        .values({
          id: invite.id,
          organization_id: organization.id,
          email,
          role,
          token_hash: tokenHash,
          invited_by: user.id,
          created_at: invite.createdAt,
          expires_at: invite.expiresAt,
          accepted_at: null,
        })
        .execute();
      if (!(await fastify.mailer.trySend(invitationMail(email, user.name, organization.name, role, publicBaseUrl(fastify.config), token), request.log))) {
        // An invitation nobody received is no invitation: it goes, so the list shows none and a retry starts clean.
        await fastify.db.deleteFrom('organization_invites').where('id', '=', invite.id).execute();
        return reply.code(503).send({ message: `We could not send the invitation to ${email} just now, so nobody was invited. Try again in a few minutes.` });
      }
      return reply.code(201).send(invite);
    },
  );

  fastify.post('/api/account/invites/accept', { schema: { body: InviteAccept, response: { 200: Organization } } }, async (request) => {
    const user = currentUser(request);
    const invite = await fastify.db.selectFrom('organization_invites').selectAll().where('token_hash', '=', hashToken(request.body.token)).executeTakeFirst();
    if (!invite || invite.accepted_at || invite.expires_at <= iso()) throw new HttpError(400, 'This invitation is invalid, already used or expired. Ask for a new one.');
    if (invite.email !== user.email) throw new HttpError(403, `This invitation was sent to ${invite.email}. Sign in with that address to accept it.`);
    await fastify.db.transaction().execute(async (trx) => {
      const claimed = await trx.updateTable('organization_invites').set({ accepted_at: iso() }).where('id', '=', invite.id).where('accepted_at', 'is', null).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new HttpError(400, 'This invitation was already used.');
      const existing = await trx.selectFrom('organization_members').select('role').where('organization_id', '=', invite.organization_id).where('user_id', '=', user.id).executeTakeFirst();
      if (!existing) {
        await trx.insertInto('organization_members').values({ organization_id: invite.organization_id, user_id: user.id, role: invite.role, joined_at: iso() }).execute();
      }
    });
    return requireRole(user.id, invite.organization_id, 'member');
  });
};

export default organizations;
