import type { Kysely, Migration } from 'kysely';
import { distinctOrganizationNames } from '../../services/organizations/names';

/**
 * Organization names unique per account (issue 30, finding 8). Each membership row carries its
 * organization's name key (services/organizations/names), and a unique index on (user_id, name_key)
 * lets no account hold two organizations of one name, whichever way it would come about: creating,
 * renaming or accepting an invitation. Organizations that already share a name within an account
 * keep the first one's name; the later ones become "Acme Corp (2)" …, so no data is lost and the
 * index can be built.
 */
export const organizationNames: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('organization_members').addColumn('name_key', 'varchar(220)').execute();

    const store = db as unknown as Kysely<{
      organizations: { id: string; name: string; created_at: string };
      organization_members: { organization_id: string; user_id: string; name_key: string | null };
    }>;
    const organizations = await store.selectFrom('organizations').select(['id', 'name']).orderBy('created_at').orderBy('id').execute();
    const members = await store.selectFrom('organization_members').select(['organization_id', 'user_id']).execute();
    const memberIds = new Map<string, string[]>();
    for (const member of members) memberIds.set(member.organization_id, [...(memberIds.get(member.organization_id) ?? []), member.user_id]);
    const { renamed, keys } = distinctOrganizationNames(organizations.map((o) => ({ ...o, memberIds: memberIds.get(o.id) ?? [] })));
    for (const [id, name] of renamed) await store.updateTable('organizations').set({ name }).where('id', '=', id).execute();
    for (const [id, key] of keys) await store.updateTable('organization_members').set({ name_key: key }).where('organization_id', '=', id).execute();

    await db.schema.createIndex('organization_members_user_name').on('organization_members').columns(['user_id', 'name_key']).unique().execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('organization_members_user_name').execute();
    await db.schema.alterTable('organization_members').dropColumn('name_key').execute();
  },
};
