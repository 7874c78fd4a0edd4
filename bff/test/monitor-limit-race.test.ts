import { freshClientAddress, signedInUser, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

/**
 * Issue 31, finding 4: `create` counted, then inserted, so 20 parallel creates over 20 monitors all
 * got in (40 against a limit of 25). On every storage engine, parallel creates take turns.
 */
jest.setTimeout(120_000);

describe.each(storageEngines())('the monitor limit under parallel creates on $name', (engine) => {
  let store: IdentityStore;
  afterAll(async () => {
    await store?.cleanUp();
  });

  it('lets 20 parallel creates over 20 monitors reach the limit of 25 and no further', async () => {
    store = await startIdentityStore(engine, { MONITOR_SCHEDULER_SECONDS: '0' });
    await signedInUser(store, 'Rae Race', 'rae@race.test', freshClientAddress());
    const { id: userId } = await store.app.db.selectFrom('users').select('id').where('email', '=', 'rae@race.test').executeTakeFirstOrThrow();
    for (let index = 0; index < 20; index += 1) expect(await store.app.monitors.create(userId, `kept-${index}.example`, Date.now())).toMatchObject({ domain: `kept-${index}.example` });
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, index) => store.app.monitors.create(userId, `raced-${index}.example`, Date.now())));
    expect(outcomes.filter((outcome) => typeof outcome === 'object')).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome === 'limit')).toHaveLength(15);
    expect(await store.app.monitors.list(userId)).toHaveLength(25);
  });
});
