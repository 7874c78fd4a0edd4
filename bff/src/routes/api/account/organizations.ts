import {
  ACCOUNT_PATHS,
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
import { z } from 'zod';
import { publicBaseUrl } from '../../../config';
import { HttpError } from '../../../lib/http-error';
import { invitationMail } from '../../../services/mail/account-mails';
import { currentUser } from './current-user';
import { readableGet } from './readable';

const OrganizationParams = z.object({ id: RecordId });
const MemberParams = z.object({ id: RecordId, userId: RecordId });
const InviteParams = z.object({ id: RecordId, inviteId: RecordId });
/** The route of one organization, under which its members and invitations are. */
const ORGANIZATION_ROUTE = `${ACCOUNT_PATHS.organizations}/:id`;

/**
 * Organizations: create, rename, members and invitations by email, roles owner and member.
 * Only members see an organization (others get 404, as if it did not exist); only owners
 * rename it, invite, revoke invitations, change roles and remove members; any member may leave.
 * An organization always keeps at least one owner.
 */
const organizations: FastifyPluginAsyncZod = async (fastify) => {
  const repository = fastify.organizations;

  readableGet(fastify, { url: ACCOUNT_PATHS.organizations, response: OrganizationList, read: async (user) => ({ organizations: await repository.listFor(user.id) }) });

  fastify.post(ACCOUNT_PATHS.organizations, { schema: { body: OrganizationCreate, response: { 201: Organization, 409: ApiError } } }, async (request, reply) =>
    reply.code(201).send(await repository.create(currentUser(request).id, request.body.name)),
  );

  fastify.patch(ORGANIZATION_ROUTE, { schema: { params: OrganizationParams, body: OrganizationRename, response: { 200: Organization, 409: ApiError } } }, async (request) => {
    const user = currentUser(request);
    await repository.requireRole(user.id, request.params.id, 'owner');
    await repository.rename(request.params.id, request.body.name, user.id);
    return repository.requireRole(user.id, request.params.id, 'owner');
  });

  readableGet(fastify, {
    url: `${ORGANIZATION_ROUTE}/members`,
    params: OrganizationParams,
    response: OrganizationMembers,
    read: async (user, { params }) => {
      const organization = await repository.requireRole(user.id, params.id, 'member');
      return {
        members: await repository.members(organization.id),
        invites: organization.role === 'owner' ? await repository.pendingInvites(organization.id) : [],
      };
    },
  });

  fastify.patch(`${ORGANIZATION_ROUTE}/members/:userId`, { schema: { params: MemberParams, body: MemberRoleUpdate, response: { 200: Member } } }, async (request) => {
    const user = currentUser(request);
    const organization = await repository.requireRole(user.id, request.params.id, 'owner');
    const { userId } = request.params;
    await repository.setRole(
      organization,
      user.id,
      userId,
      request.body.role,
      `${userId === user.id ? 'You are' : 'This member is'} the only owner of ${organization.name}. Make another member an owner first.`,
    );
    return repository.member(organization.id, userId);
  });

  fastify.delete(`${ORGANIZATION_ROUTE}/members/:userId`, { schema: { params: MemberParams } }, async (request, reply) => {
    const user = currentUser(request);
    const leaving = request.params.userId === user.id;
    // Anyone may leave; only owners remove others.
    const organization = await repository.requireRole(user.id, request.params.id, leaving ? 'member' : 'owner');
    await repository.removeMember(
      organization,
      { id: user.id, mustOwn: !leaving },
      request.params.userId,
      leaving
        ? `You are the only owner of ${organization.name}. Make another member an owner before you leave.`
        : `This member is the only owner of ${organization.name}. Make another member an owner first.`,
    );
    request.log.info({ organizationId: organization.id, userId: request.params.userId, by: user.id }, leaving ? 'member left an organization' : 'member removed from an organization');
    return reply.code(204).send();
  });

  fastify.get(`${ORGANIZATION_ROUTE}/invites`, { schema: { params: OrganizationParams, response: { 200: InviteList } } }, async (request) => {
    const organization = await repository.requireRole(currentUser(request).id, request.params.id, 'owner');
    return { invites: await repository.pendingInvites(organization.id) };
  });

  fastify.delete(`${ORGANIZATION_ROUTE}/invites/:inviteId`, { schema: { params: InviteParams } }, async (request, reply) => {
    const organization = await repository.requireRole(currentUser(request).id, request.params.id, 'owner');
    if (!(await repository.revokeInvite(organization.id, request.params.inviteId))) throw new HttpError(404, 'Invitation not found, or already accepted');
    return reply.code(204).send();
  });

  fastify.post(
    `${ORGANIZATION_ROUTE}/invites`,
    { schema: { params: OrganizationParams, body: InviteCreate, response: { 201: Invite, 503: ApiError } }, config: { rateLimit: { max: 30, timeWindow: '1 hour' } } },
    async (request, reply) => {
      const user = currentUser(request);
      const organization = await repository.requireRole(user.id, request.params.id, 'owner');
      const { email, role } = request.body;
      if (await repository.hasMemberWithEmail(organization.id, email)) throw new HttpError(409, `email: ${email} is already a member of ${organization.name}`);
      const { invite, token } = await repository.invite(organization.id, user.id, { email, role });
      if (!(await fastify.mailer.trySend(invitationMail(email, user.name, organization.name, role, publicBaseUrl(fastify.config), token), request.log))) {
        // An invitation nobody received is no invitation: it goes, so the list shows none and a retry starts clean.
        await repository.withdrawInvite(invite.id);
        return reply.code(503).send({ message: `We could not send the invitation to ${email} just now, so nobody was invited. Try again in a few minutes.` });
      }
      return reply.code(201).send(invite);
    },
  );

  fastify.post(ACCOUNT_PATHS.acceptInvite, { schema: { body: InviteAccept, response: { 200: Organization, 409: ApiError } } }, async (request) => {
    const user = currentUser(request);
    const organizationId = await repository.acceptInvite(user, request.body.token);
    return repository.requireRole(user.id, organizationId, 'member');
  });
};

export default organizations;
