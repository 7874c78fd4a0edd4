import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Kysely, Migrator } from 'kysely';
import { Client } from 'pg';
import { loadConfig } from '../src/config';
import { storeMigrations } from '../src/db/migrations';
import type { StoreDatabase } from '../src/db/schema';
import { createDialect, migrateToLatest } from '../src/plugins/app/platform/db';
import { distinctOrganizationNames, organizationNameKey } from '../src/services/organizations/names';
import { Browser, linkFromOutbox, signedInUser, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

// Three sign-ups (argon2) per test on a shared 2-core machine.

describe('organization name keys', () => {
  it('takes names that differ only in case, spacing or Unicode form as one', () => {
    expect(organizationNameKey('  Acme   Corp ')).toBe(organizationNameKey('acme corp'));
    expect(organizationNameKey('Ａｃｍｅ Corp')).toBe(organizationNameKey('Acme Corp'));
    expect(organizationNameKey('Acme Corp.')).not.toBe(organizationNameKey('Acme Corp'));
  });

  it('numbers the later duplicates within an account, free for every member', () => {
    const { renamed, keys } = distinctOrganizationNames([
      { id: 'a', name: 'Acme Corp', memberIds: ['jane'] },
      { id: 'b', name: 'acme corp', memberIds: ['jane', 'joe'] },
      { id: 'c', name: 'Acme Corp', memberIds: ['joe'] },
      { id: 'g', name: 'ACME corp', memberIds: ['joe'] },
      { id: 'd', name: 'Acme Corp', memberIds: ['eve'] },
      { id: 'e', name: `${'x'.repeat(200)}`, memberIds: ['eve'] },
      { id: 'f', name: `${'x'.repeat(200)}`, memberIds: ['eve'] },
    ]);
    // Jane's second is (2), which Joe shares; Joe's own "Acme Corp" keeps its name, and his next is (3), as (2) is his already. Eve's is alone.
    expect(Object.fromEntries(renamed)).toEqual({ b: 'acme corp (2)', g: 'ACME corp (3)', f: `${'x'.repeat(196)} (2)` });
    expect(keys.get('d')).toBe('acme corp');
  });
});

describe.each(storageEngines())('organization names unique per account on $name (issue 30, finding 8)', (engine) => {
  let store: IdentityStore;
  let jane: Browser;
  let joe: Browser;
  beforeEach(async () => {
    store = await startIdentityStore(engine);
    jane = await signedInUser(store, 'Jane', 'jane@example.com', '203.0.113.1');
    joe = await signedInUser(store, 'Joe', 'joe@example.com', '203.0.113.2');
  });
  afterEach(() => store.cleanUp());

  const names = async (browser: Browser) => ((await browser.request({ url: '/api/account/organizations' })).json().organizations as { name: string }[]).map((o) => o.name);

  it('refuses a second "Acme Corp" in one account with 409 and a clear message, and stores nothing', async () => {
    expect((await jane.write('POST', '/api/account/organizations', { name: 'Acme Corp' })).statusCode).toBe(201);
    for (const name of ['Acme Corp', '  acme   CORP ']) {
      const again = await jane.write('POST', '/api/account/organizations', { name });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(`You already have an organization named “${name.trim()}”. Choose it from the list, or give this one another name.`);
    }
    expect(await names(jane)).toEqual(['Acme Corp']);
    // Another account may use the name.
    expect((await joe.write('POST', '/api/account/organizations', { name: 'Acme Corp' })).statusCode).toBe(201);
  });

  it('answers one 201 and one 409 to two creations at the same moment', async () => {
    const answers = await Promise.all([jane.write('POST', '/api/account/organizations', { name: 'Twin' }), jane.write('POST', '/api/account/organizations', { name: 'twin' })]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(await names(jane)).toHaveLength(1);
  });

  it('refuses a rename to a name the owner or a member already has, and an invitation into a second of one name', async () => {
    const acme = (await jane.write('POST', '/api/account/organizations', { name: 'Acme' })).json();
    const beta = (await jane.write('POST', '/api/account/organizations', { name: 'Beta' })).json();
    const rename = await jane.write('PATCH', `/api/account/organizations/${beta.id}`, { name: 'ACME' });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().message).toContain('You already have an organization named “ACME”');
    expect((await jane.write('PATCH', `/api/account/organizations/${beta.id}`, { name: 'beta' })).statusCode).toBe(200);

    // Joe has his own "Gamma"; Jane invites him to Acme, then tries to rename Acme to Gamma.
    await joe.write('POST', '/api/account/organizations', { name: 'Gamma' });
    expect((await jane.write('POST', `/api/account/organizations/${acme.id}/invites`, { email: 'joe@example.com', role: 'member' })).statusCode).toBe(201);
    const token = new URL(await linkFromOutbox(store.app, 'joe@example.com', '/account/settings/organizations')).searchParams.get('invite');
    expect((await joe.write('POST', '/api/account/invites/accept', { token })).statusCode).toBe(200);
    const toGamma = await jane.write('PATCH', `/api/account/organizations/${acme.id}`, { name: 'Gamma' });
    expect(toGamma.statusCode).toBe(409);
    expect(toGamma.json().message).toContain('A member of this organization already has an organization named “Gamma”');
    expect(await names(jane)).toEqual(['Acme', 'beta']);

    // Joe's own "Beta" blocks him from joining Jane's "beta".
    await joe.write('POST', '/api/account/organizations', { name: 'Beta' });
    store.advance(1000);
    expect((await jane.write('POST', `/api/account/organizations/${beta.id}/invites`, { email: 'joe@example.com', role: 'member' })).statusCode).toBe(201);
    const second = new URL(await linkFromOutbox(store.app, 'joe@example.com', '/account/settings/organizations')).searchParams.get('invite');
    const join = await joe.write('POST', '/api/account/invites/accept', { token: second });
    expect(join.statusCode).toBe(409);
    expect(join.json().message).toContain('You already belong to an organization named “beta”');
    expect(await names(joe)).toEqual(['Acme', 'Beta', 'Gamma']);
  });
});

/** A database at the migration before this one, with duplicates made as the old code allowed, then migrated. */
describe.each(storageEngines().filter((engine) => !engine.redis))('the organization-names migration on $name', (engine) => {
  it('renames the later duplicates of an account and then enforces the rule', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-org-names-'));
    const schema = `bff_test_orgnames_${randomBytes(4).toString('hex')}`;
    let databaseUrl: string | undefined;
    if (engine.postgres) {
      const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      const url = new URL(process.env.TEST_DATABASE_URL ?? '');
      url.searchParams.set('options', `-c search_path=${schema}`);
      databaseUrl = url.toString();
    }
    const db = new Kysely<StoreDatabase>({ dialect: createDialect(loadConfig({ DATA_DIR: dataDir, ...(databaseUrl && { DATABASE_URL: databaseUrl }) })) });
    try {
      const migrator = new Migrator({ db, provider: storeMigrations, migrationTableSchema: engine.postgres ? schema : undefined });
      expect((await migrator.migrateTo('0010_test_payment_setups')).error).toBeUndefined();
      const at = '2026-01-01T00:00:00.000Z';
      const user = (id: string) => ({ id, email: `${id}@example.com`, name: id, password_hash: 'x', notification_preferences: '{}', created_at: at, updated_at: at });
      await db
        .insertInto('users')
        .values([user('u-jane'), user('u-joe')])
        .execute();
      const organizations = [
        { id: 'o-1', name: 'Acme Corp', created_at: '2026-01-01T00:00:01.000Z' },
        { id: 'o-2', name: 'Acme Corp', created_at: '2026-01-01T00:00:02.000Z' },
        { id: 'o-3', name: 'acme corp', created_at: '2026-01-01T00:00:03.000Z' },
      ];
      await db.insertInto('organizations').values(organizations).execute();
      const member = (organization_id: string, user_id: string) => ({ organization_id, user_id, role: 'owner' as const, joined_at: at });
      // Without name_key: the table as it was before this migration.
      await (db as unknown as Kysely<{ organization_members: Omit<StoreDatabase['organization_members'], 'name_key'> }>)
        .insertInto('organization_members')
        .values([member('o-1', 'u-jane'), member('o-2', 'u-jane'), member('o-3', 'u-joe')])
        .execute();

      expect(await migrateToLatest(db)).toContain('0011_organization_names');
      const rows = await db.selectFrom('organizations').select(['id', 'name']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 'o-1', name: 'Acme Corp' },
        { id: 'o-2', name: 'Acme Corp (2)' },
        { id: 'o-3', name: 'acme corp' },
      ]);
      await db.insertInto('organizations').values({ id: 'o-4', name: 'ACME CORP', created_at: at }).execute();
      await expect(
        db
          .insertInto('organization_members')
          .values({ ...member('o-4', 'u-jane'), name_key: organizationNameKey('ACME CORP') })
          .execute(),
      ).rejects.toMatchObject({
        code: expect.stringMatching(/^(23505|SQLITE_CONSTRAINT_UNIQUE)$/),
      });
    } finally {
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
      if (engine.postgres) {
        const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    }
  });
});
