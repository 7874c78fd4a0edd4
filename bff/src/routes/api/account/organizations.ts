import {
  INVITE_LIFETIME_DAYS,
  Invite,
  InviteAccept,
  InviteCreate,
  Organization,
  OrganizationCreate,
  OrganizationList,
  OrganizationMembers,
  OrganizationRename,
  RecordId,
} from '@bimi/contracts/account';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicBaseUrl } from '../../../config';
import { HttpError } from '../../../lib/http-error';
import { invitationMail } from '../../../lib/mail-texts';
import { hashToken, newId, newLinkToken } from '../../../lib/tokens';
import { currentUser } from './current-user';

const DAY = 24 * 60 * 60 * 1000;
const OrganizationParams = z.object({ id: RecordId });
const NOT_FOUND = 'Organization not found';

/**
 * Organizations: create, rename, members and invitations by email, roles owner and member.
 * Only members see an organization (others get 404, as if it did not exist); only owners
 * rename it and invite.
 */
const organizations: FastifyPluginAsyncZod = async (fastify) => {
  const iso = (offset = 0) => new Date(fastify.now() + offset).toISOString();

  async function organizationFor(userId: string, organizationId: string): Promise<Organization | undefined> {
    const row = await fastify.db
      .selectFrom('organization_members as mine')
      .innerJoin('organizations', 'organizations.id', 'mine.organization_id')
      .select((eb) => [
        'organizations.id',
        'organizations.name',
        'organizations.created_at',
        'mine.role',
        eb.selectFrom('organization_members as all').select((count) => count.fn.countAll<number>().as('n')).whereRef('all.organization_id', '=', 'organizations.id').as('member_count'),
      ])
      .where('mine.user_id', '=', userId)
      .where('organizations.id', '=', organizationId)
      .executeTakeFirst();
    return row && { id: row.id, name: row.name, role: row.role, memberCount: Number(row.member_count ?? 0), createdAt: row.created_at };
  }

  async function requireRole(userId: string, organizationId: string, role: 'owner' | 'member'): Promise<Organization> {
    const organization = await organizationFor(userId, organizationId);
    if (!organization) throw new HttpError(404, NOT_FOUND);
    if (role === 'owner' && organization.role !== 'owner') throw new HttpError(403, 'Only owners of the organization can do this');
    return organization;
  }

  fastify.get('/api/account/organizations', { schema: { response: { 200: OrganizationList } } }, async (request) => {
    const user = currentUser(request);
    const memberships = await fastify.db.selectFrom('organization_members').select('organization_id').where('user_id', '=', user.id).execute();
    const list: Organization[] = [];
    for (const { organization_id } of memberships) {
      const organization = await organizationFor(user.id, organization_id);
      if (organization) list.push(organization);
    }
    list.sort((a, b) => a.name.localeCompare(b.name));
    return { organizations: list };
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
    const members = await fastify.db
      .selectFrom('organization_members')
      .innerJoin('users', 'users.id', 'organization_members.user_id')
      .select(['users.name', 'users.email', 'organization_members.role', 'organization_members.joined_at'])
      .where('organization_members.organization_id', '=', organization.id)
      // Owners first, then by arrival.
      .orderBy('organization_members.role', 'desc')
      .orderBy('organization_members.joined_at')
      .orderBy('users.email')
      .execute();
    const invites =
      organization.role === 'owner'
        ? await fastify.db
            .selectFrom('organization_invites')
            .select(['id', 'email', 'role', 'created_at', 'expires_at'])
            .where('organization_id', '=', organization.id)
            .where('accepted_at', 'is', null)
            .where('expires_at', '>', iso())
            .orderBy('created_at')
            .execute()
        : [];
    return {
      members: members.map((member) => ({ name: member.name, email: member.email, role: member.role, joinedAt: member.joined_at })),
      invites: invites.map((invite) => ({ id: invite.id, email: invite.email, role: invite.role, createdAt: invite.created_at, expiresAt: invite.expires_at })),
    };
  });

  fastify.post(
    '/api/account/organizations/:id/invites',
    { schema: { params: OrganizationParams, body: InviteCreate, response: { 201: Invite } }, config: { rateLimit: { max: 30, timeWindow: '1 hour' } } },
    async (request, reply) => {
      const user = currentUser(request);
      const organization = await requireRole(user.id, request.params.id, 'owner');
      const { email, role } = request.body;
      const alreadyMember = await fastify.db
        .selectFrom('organization_members')
        .innerJoin('users', 'users.id', 'organization_members.user_id')
        .select('users.id')
        .where('organization_members.organization_id', '=', organization.id)
        .where('users.email', '=', email)
        .executeTakeFirst();
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
      await fastify.mailer.send(invitationMail(email, user.name, organization.name, role, publicBaseUrl(fastify.config), token));
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
