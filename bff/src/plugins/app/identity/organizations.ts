import { INVITE_LIFETIME_DAYS, type Invite, type Member, type Organization } from '@bimi/contracts/account';
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import type { StoreDatabase } from '../../../db/schema';
import { HttpError } from '../../../lib/http-error';
import { isSqlite, isUniqueViolation } from '../platform/db';
import { duplicateOrganizationMessage, organizationNameKey } from '../../../services/organizations/names';
import { hashToken, newId, newLinkToken } from '../../../lib/tokens';
import { iso } from '../../../lib/iso';

type Role = Organization['role'];

const DAY = 24 * 60 * 60 * 1000;
const NOT_FOUND = 'Organization not found';
const NOT_OWNER = 'Only owners of the organization can do this';
const MEMBER_NOT_FOUND = 'This person is not a member of the organization';
const JOIN_SAME_NAME = (name: string) => `You already belong to an organization named “${name}”. Rename yours in Settings, then accept the invitation again.`;

/**
 * Organizations, their members (roles owner and member) and invitations by email. Only members
 * see an organization (others get 404, as if it did not exist); an organization always keeps at
 * least one owner.
 */
export interface Organizations {
  /** The organizations the user belongs to, by name. */
  listFor(userId: string): Promise<Organization[]>;
  /** A new organization, with the user as its owner; 409 when the user already has one of that name (services/organizations/names). */
  create(userId: string, name: string): Promise<Organization>;
  /** The organization as the user sees it: 404 unless they are a member, 403 unless they own it when `role` is owner. */
  requireRole(userId: string, organizationId: string, role: Role): Promise<Organization>;
  /** 409 when `userId` (the owner renaming) or another member already has an organization of that name. */
  rename(organizationId: string, name: string, userId: string): Promise<void>;
  /** Owners first, then by arrival. */
  members(organizationId: string): Promise<Member[]>;
  /** One member; 404 when the user is not one. */
  member(organizationId: string, userId: string): Promise<Member>;
  hasMemberWithEmail(organizationId: string, email: string): Promise<boolean>;
  /** Whether the user belongs to the organization (any role). */
  isMember(organizationId: string, userId: string): Promise<boolean>;
  /** The organization's name, whoever asks (the operator's `orders` command); undefined when there is none. */
  nameOf(organizationId: string): Promise<string | undefined>;
  /** Invitations neither accepted nor expired, oldest first. */
  pendingInvites(organizationId: string): Promise<Invite[]>;
  /** `actorId` (an owner) gives `userId` the role; 409 with `lastOwnerRefusal` when that leaves no owner. */
  setRole(organization: Organization, actorId: string, userId: string, role: Role, lastOwnerRefusal: string): Promise<void>;
  /** `actor` removes `userId` (an owner, unless they remove themselves: leaving); 409 with `lastOwnerRefusal` when that leaves no owner. */
  removeMember(organization: Organization, actor: { id: string; mustOwn: boolean }, userId: string, lastOwnerRefusal: string): Promise<void>;
  /** Stores an invitation and answers it with the token for its mailed link. */
  invite(organizationId: string, invitedBy: string, invitee: { email: string; role: Role }): Promise<{ invite: Invite; token: string }>;
  /** Forgets an invitation whose mail did not go. */
  withdrawInvite(inviteId: string): Promise<void>;
  /** False when the organization has no pending invitation of that id. */
  revokeInvite(organizationId: string, inviteId: string): Promise<boolean>;
  /** Makes the user a member by the invitation's token (400 when unknown, used or expired; 403 when sent to another address; 409 when they already have an organization of its name); answers the organization's id. */
  acceptInvite(user: { id: string; email: string }, token: string): Promise<string>;
}

function toOrganization(row: { id: string; name: string; role: Role; member_count: number | null; created_at: string }): Organization {
  return { id: row.id, name: row.name, role: row.role, memberCount: Number(row.member_count ?? 0), createdAt: row.created_at };
}

function toMember(row: { id: string; name: string; email: string; role: Role; joined_at: string }): Member {
  return { userId: row.id, name: row.name, email: row.email, role: row.role, joinedAt: row.joined_at };
}

export function createOrganizations(db: Kysely<StoreDatabase>, now: () => number): Organizations {
  /** The organizations `userId` belongs to, with their role in each and the number of members. */
  function organizationsOf(userId: string) {
    return db
      .selectFrom('organization_members as mine')
      .innerJoin('organizations', 'organizations.id', 'mine.organization_id')
      .select((eb) => [
        'organizations.id',
        'organizations.name',
        'organizations.created_at',
        'mine.role',
        eb
          .selectFrom('organization_members as all')
          .select((count) => count.fn.countAll<number>().as('n'))
          .whereRef('all.organization_id', '=', 'organizations.id')
          .as('member_count'),
      ])
      .where('mine.user_id', '=', userId);
  }

  /** The people in an organization, with their names and addresses. */
  function membersOf(organizationId: string) {
    return db
      .selectFrom('organization_members')
      .innerJoin('users', 'users.id', 'organization_members.user_id')
      .select(['users.id', 'users.name', 'users.email', 'organization_members.role', 'organization_members.joined_at'])
      .where('organization_members.organization_id', '=', organizationId);
  }

  async function requireRole(userId: string, organizationId: string, role: Role): Promise<Organization> {
    const row = await organizationsOf(userId).where('organizations.id', '=', organizationId).executeTakeFirst();
    if (!row) throw new HttpError(404, NOT_FOUND);
    const organization = toOrganization(row);
    if (role === 'owner' && organization.role !== 'owner') throw new HttpError(403, NOT_OWNER);
    return organization;
  }

  /**
   * Holds the organization's row until the transaction ends, so two owners changing members at the
   * same time take turns and cannot both step down and leave it without an owner. SQLite needs no
   * lock: its one connection runs one transaction at a time.
   */
  async function lockOrganization(trx: Transaction<StoreDatabase>, organizationId: string): Promise<void> {
    if (isSqlite(db)) return;
    await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute();
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
    await db.transaction().execute(async (trx) => {
      await lockOrganization(trx, organization.id);
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

  /** Which of `userIds` already holds an organization (other than `except`) whose name has `nameKey`; undefined when none. */
  async function holdsName(trx: Transaction<StoreDatabase>, userIds: readonly string[], nameKey: string, except?: string): Promise<string | undefined> {
    if (userIds.length === 0) return undefined;
    let query = trx.selectFrom('organization_members').select('user_id').where('user_id', 'in', userIds).where('name_key', '=', nameKey);
    if (except) query = query.where('organization_id', '!=', except);
    return (await query.executeTakeFirst())?.user_id;
  }

  /** Runs a write whose name check another request may have passed at the same moment: the unique index decides, and the loser gets the same 409. */
  async function uniqueName(name: string, who: 'you' | 'a member', write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, duplicateOrganizationMessage(name, who));
      throw error;
    }
  }

  return {
    requireRole,

    async listFor(userId) {
      const rows = await organizationsOf(userId).execute();
      return rows.map(toOrganization).sort((a, b) => a.name.localeCompare(b.name));
    },

    async create(userId, name) {
      const id = newId();
      const nameKey = organizationNameKey(name);
      await uniqueName(name, 'you', () =>
        db.transaction().execute(async (trx) => {
          if (await holdsName(trx, [userId], nameKey)) throw new HttpError(409, duplicateOrganizationMessage(name));
          await trx
            .insertInto('organizations')
            .values({ id, name, created_at: iso(now()) })
            .execute();
          await trx
            .insertInto('organization_members')
            .values({ organization_id: id, user_id: userId, role: 'owner', joined_at: iso(now()), name_key: nameKey })
            .execute();
        }),
      );
      return requireRole(userId, id, 'owner');
    },

    async rename(organizationId, name, userId) {
      const nameKey = organizationNameKey(name);
      await uniqueName(name, 'a member', () =>
        db.transaction().execute(async (trx) => {
          const members = (await trx.selectFrom('organization_members').select('user_id').where('organization_id', '=', organizationId).execute()).map((m) => m.user_id);
          const holder = await holdsName(trx, members, nameKey, organizationId);
          if (holder) throw new HttpError(409, duplicateOrganizationMessage(name, holder === userId ? 'you' : 'a member'));
          await trx.updateTable('organizations').set({ name }).where('id', '=', organizationId).execute();
          await trx.updateTable('organization_members').set({ name_key: nameKey }).where('organization_id', '=', organizationId).execute();
        }),
      );
    },

    async members(organizationId) {
      const rows = await membersOf(organizationId).orderBy('organization_members.role', 'desc').orderBy('organization_members.joined_at').orderBy('users.email').execute();
      return rows.map(toMember);
    },

    async member(organizationId, userId) {
      const row = await membersOf(organizationId).where('organization_members.user_id', '=', userId).executeTakeFirst();
      if (!row) throw new HttpError(404, MEMBER_NOT_FOUND);
      return toMember(row);
    },

    async hasMemberWithEmail(organizationId, email) {
      return (await membersOf(organizationId).where('users.email', '=', email).executeTakeFirst()) !== undefined;
    },

    async isMember(organizationId, userId) {
      const member = await db.selectFrom('organization_members').select('organization_id').where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();
      return member !== undefined;
    },

    async nameOf(organizationId) {
      return (await db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirst())?.name;
    },

    async pendingInvites(organizationId) {
      const invites = await db
        .selectFrom('organization_invites')
        .select(['id', 'email', 'role', 'created_at', 'expires_at'])
        .where('organization_id', '=', organizationId)
        .where('accepted_at', 'is', null)
        .where('expires_at', '>', iso(now()))
        .orderBy('created_at')
        .execute();
      return invites.map((invite) => ({ id: invite.id, email: invite.email, role: invite.role, createdAt: invite.created_at, expiresAt: invite.expires_at }));
    },

    async setRole(organization, actorId, userId, role, lastOwnerRefusal) {
      await changeMembership(
        organization,
        { id: actorId, mustOwn: true },
        userId,
        async (trx) => {
          await trx.updateTable('organization_members').set({ role }).where('organization_id', '=', organization.id).where('user_id', '=', userId).execute();
          return { staysOwner: role === 'owner' };
        },
        lastOwnerRefusal,
      );
    },

    async removeMember(organization, actor, userId, lastOwnerRefusal) {
      await changeMembership(
        organization,
        actor,
        userId,
        async (trx) => {
          await trx.deleteFrom('organization_members').where('organization_id', '=', organization.id).where('user_id', '=', userId).execute();
          return { staysOwner: false };
        },
        lastOwnerRefusal,
      );
    },

    async invite(organizationId, invitedBy, { email, role }) {
      const { token, tokenHash } = newLinkToken();
      const invite = { id: newId(), email, role, createdAt: iso(now()), expiresAt: iso(now() + INVITE_LIFETIME_DAYS * DAY) };
      await db
        .insertInto('organization_invites')
        .values({
          id: invite.id,
          organization_id: organizationId,
          email,
          role,
          token_hash: tokenHash,
          invited_by: invitedBy,
          created_at: invite.createdAt,
          expires_at: invite.expiresAt,
          accepted_at: null,
        })
        .execute();
      return { invite, token };
    },

    async withdrawInvite(inviteId) {
      await db.deleteFrom('organization_invites').where('id', '=', inviteId).execute();
    },

    async revokeInvite(organizationId, inviteId) {
      const revoked = await db
        .deleteFrom('organization_invites')
        .where('id', '=', inviteId)
        .where('organization_id', '=', organizationId)
        .where('accepted_at', 'is', null)
        .executeTakeFirst();
      return Number(revoked.numDeletedRows) === 1;
    },

    async acceptInvite(user, token) {
      const invite = await db.selectFrom('organization_invites').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst();
      if (!invite || invite.accepted_at || invite.expires_at <= iso(now())) throw new HttpError(400, 'This invitation is invalid, already used or expired. Ask for a new one.');
      if (invite.email !== user.email) throw new HttpError(403, `This invitation was sent to ${invite.email}. Sign in with that address to accept it.`);
      await db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('organization_invites')
          .set({ accepted_at: iso(now()) })
          .where('id', '=', invite.id)
          .where('accepted_at', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw new HttpError(400, 'This invitation was already used.');
        const existing = await trx.selectFrom('organization_members').select('role').where('organization_id', '=', invite.organization_id).where('user_id', '=', user.id).executeTakeFirst();
        if (!existing) {
          const { name } = await trx.selectFrom('organizations').select('name').where('id', '=', invite.organization_id).executeTakeFirstOrThrow();
          const nameKey = organizationNameKey(name);
          if (await holdsName(trx, [user.id], nameKey)) throw new HttpError(409, JOIN_SAME_NAME(name));
          await trx
            .insertInto('organization_members')
            .values({ organization_id: invite.organization_id, user_id: user.id, role: invite.role, joined_at: iso(now()), name_key: nameKey })
            .execute();
        }
      });
      return invite.organization_id;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    organizations: Organizations;
  }
}

export default fp(
  async function organizations(fastify) {
    fastify.decorate('organizations', createOrganizations(fastify.db, fastify.now));
  },
  { name: 'organizations', dependencies: ['db', 'clock'] },
);
