import { AssistantStreamEvent, MonitorCreated, MonitorDetail, MonitorList, type MonitorSnapshot } from '@bimi/contracts/monitors';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { stripSecretText } from '../src/services/assistant/context';
import { startToolFixtures, type ToolFixtures } from './fixtures/tools/start';
import { startSmtpServer } from './smtp-fixture';
import { type Browser, freshClientAddress, GOOD_PASSWORD, signedInUser, startIdentityStore, storageEngines, type IdentityStore } from './identity-fixtures';

// Real peers: the fixture DNS and HTTPS servers, the untrusted-files workers, argon2 sign-ups.
jest.setTimeout(60_000);

const DAY = 24 * 60 * 60 * 1000;
let fixtures: ToolFixtures;
let store: IdentityStore;
let alice: Browser;
let bob: Browser;

const create = (browser: Browser, domain: unknown) => browser.write('POST', '/api/account/monitors/create', { domain });
const detailOf = async (browser: Browser, domain: string) => {
  const response = await browser.request({ url: `/api/account/monitors/${domain}` });
  expect(response.statusCode).toBe(200);
  return MonitorDetail.parse(response.json());
};
/** A day (and a second) later; the sessions have idled out by then, so both users sign in again. */
async function nextDay() {
  store.advance(DAY + 1000);
  expect((await alice.signIn('alice@monitors.test', GOOD_PASSWORD)).statusCode).toBe(200);
  expect((await bob.signIn('bob@monitors.test', GOOD_PASSWORD)).statusCode).toBe(200);
}
function streamEvents(body: string): AssistantStreamEvent[] {
  return body
    .split('\n')
    .filter(Boolean)
    .map((line) => AssistantStreamEvent.parse(JSON.parse(line)));
}

// The API, the schedule (in-process on SQLite, pg-boss on PostgreSQL) and the alerts, on each engine.
describe.each(storageEngines().filter((engine) => !engine.redis))('monitors on $name', (engine) => {
  beforeAll(async () => {
    fixtures = await startToolFixtures();
    store = await startIdentityStore(engine, {
      ...fixtures.env,
      TOOLS_DNS_TIMEOUT_MS: '1500',
      MONITOR_SCHEDULER_SECONDS: '0',
      MONITOR_LIMIT_PER_USER: '3',
      MONITOR_RECHECKS_PER_HOUR: '2',
    });
    // The fixture certificates are issued for the real date: the bff's clock starts there too.
    store.clock.now = Date.now();
    await store.app.untrustedFiles.warmUp();
    alice = await signedInUser(store, 'Alice Owner', 'alice@monitors.test', freshClientAddress());
    bob = await signedInUser(store, 'Bob Other', 'bob@monitors.test', freshClientAddress());
  }, 120_000);
  afterAll(async () => {
    await store.cleanUp();
    await fixtures.close();
  });

  describe('POST /api/account/monitors/create', () => {
    it.each([
      [undefined, 'Domain is required'],
      // Issue 32: an empty domain is "Please enter a domain name" (spec §5); no domain at all is "Domain is required".
      ['', 'Please enter a domain name'],
      ['   ', 'Please enter a domain name'],
      ['https://', 'Please enter a domain name'],
      ['not a domain', 'Please enter a valid domain name (e.g., example.com)'],
      ['-bad-.example', 'Please enter a valid domain name (e.g., example.com)'],
      ['192.0.2.1', 'Please enter a valid domain name (e.g., example.com)'],
      [`${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(10)}.example`, 'Domain name is too long'],
      [42, 'domain: Domain is required'],
    ])('refuses %p with %p and creates nothing', async (domain, message) => {
      const response = await create(alice, domain);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(message);
      expect((await alice.request({ url: '/api/account/monitors' })).json().monitors).toEqual([]);
    });

    it('needs a session', async () => {
      const response = await store.app.inject({ method: 'POST', url: '/api/account/monitors/create', payload: { domain: 'good.example' } });
      expect([401, 403]).toContain(response.statusCode);
    });

    it('creates a monitor after its first analysis (sent lowercased, scheme and slash removed), once per domain', async () => {
      const response = await create(alice, 'HTTPS://Good.Example/');
      expect(response.statusCode).toBe(201);
      const created = MonitorCreated.parse(response.json());
      expect(created.domain).toBe('good.example');
      expect(created.monitor).toMatchObject({ domain: 'good.example', status: 'active', checking: false });
      expect(created.monitor.healthScore).toBeGreaterThanOrEqual(80);
      expect(created.monitor.lastCheckedAt).toBe(new Date(store.clock.now).toISOString());

      const duplicate = await create(alice, 'good.example');
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().message).toBe('You already monitor good.example.');
    });

    it('refuses a domain that does not exist, and past the limit', async () => {
      const missing = await create(alice, 'no-such-domain.example');
      expect(missing.statusCode).toBe(422);
      expect(missing.json().message).toMatch(/^no-such-domain\.example does not exist in DNS/);
      expect((await create(alice, 'dmarc-none.example')).statusCode).toBe(201);
      expect((await create(alice, 'dmarc-missing.example')).statusCode).toBe(201);
      const over = await create(alice, 'bimi-good.example');
      expect(over.statusCode).toBe(403);
      expect(over.json().message).toBe('You have reached your limit of 3 monitors. Delete one to add bimi-good.example.');
      const list = MonitorList.parse((await alice.request({ url: '/api/account/monitors' })).json());
      expect(list.monitors.map((monitor) => monitor.domain)).toEqual(['dmarc-missing.example', 'dmarc-none.example', 'good.example']);
      expect(list.limit).toBe(3);
    });
  });

  describe('a monitor in detail', () => {
    it('shows the checks by record, the logo, the certificate and what each mailbox would show', async () => {
      const good = await detailOf(alice, 'good.example');
      const latest = good.latest as MonitorSnapshot;
      expect(latest.groups.map((group) => group.group)).toEqual(['dmarc', 'spf', 'dkim', 'bimi', 'logo', 'certificate', 'mx']);
      expect(latest.logo.dataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(latest.certificate).toMatchObject({ present: true, kind: 'VMC', logoHashMatches: true });
      expect(latest.certificate.daysLeft).toBeGreaterThan(30);
      expect(latest.providers.map((provider) => [provider.label, provider.showsLogo])).toEqual([
        ['Gmail', true],
        ['Apple Mail', true],
        ['Yahoo', true],
      ]);
      expect(latest.dkimSelectors).toEqual(expect.arrayContaining(['default', 'selector1']));
      expect(good.history).toEqual([{ at: latest.checkedAt, score: latest.healthScore, changes: 0 }]);

      const none = (await detailOf(alice, 'dmarc-none.example')).latest as MonitorSnapshot;
      expect(none.healthScore).toBeLessThan(latest.healthScore);
      expect(none.logo).toMatchObject({ dataUrl: null, initial: 'D' });
      expect(none.logo.reason).toBeTruthy();
      expect(none.providers.every((provider) => !provider.showsLogo && provider.reasons.length > 0)).toBe(true);
      // No BIMI record (absent, in issue 17's statuses) is a reason of its own for every mailbox.
      expect(none.providers.every((provider) => provider.reasons.includes('The BIMI record is missing or not usable.'))).toBe(true);
      // A missing record is `absent` since issue 17's verdict model; it ranks with a fail.
      expect(['fail', 'absent']).toContain(none.topIssues[0]?.status);
      expect(none.topIssues.every((issue) => issue.fix.length > 0)).toBe(true);
    });

    it("answers 404 for another user's monitor, whatever the call, and changes nothing", async () => {
      const calls: [string, string, unknown?][] = [
        ['GET', '/api/account/monitors/good.example'],
        ['POST', '/api/account/monitors/good.example/check'],
        ['PUT', '/api/account/monitors/good.example/status', { status: 'paused' }],
        ['DELETE', '/api/account/monitors/good.example'],
        ['GET', '/api/account/monitors/good.example/assistant'],
        ['POST', '/api/account/monitors/good.example/assistant', { question: 'why?' }],
      ];
      for (const [method, url, body] of calls) {
        const response = method === 'GET' ? await bob.request({ url }) : await bob.write(method as 'POST', url, body);
        expect({ method, url, status: response.statusCode, message: response.json().message }).toEqual({ method, url, status: 404, message: 'Monitor not found' });
      }
      expect((await detailOf(alice, 'good.example')).monitor.status).toBe('active');
    });

    it('pauses, resumes and deletes', async () => {
      const paused = await alice.write('PUT', '/api/account/monitors/dmarc-missing.example/status', { status: 'paused' });
      expect(paused.json()).toMatchObject({ domain: 'dmarc-missing.example', status: 'paused' });
      expect((await alice.write('PUT', '/api/account/monitors/dmarc-missing.example/status', { status: 'stopped' })).statusCode).toBe(400);
      expect((await alice.write('PUT', '/api/account/monitors/dmarc-missing.example/status', { status: 'active' })).json().status).toBe('active');
      expect((await alice.write('DELETE', '/api/account/monitors/dmarc-missing.example')).statusCode).toBe(204);
      expect((await alice.request({ url: '/api/account/monitors/dmarc-missing.example' })).statusCode).toBe(404);
    });
  });

  describe('the schedule', () => {
    it('re-checks what is due, shows a changed record as a change, and mails the alert over SMTP', async () => {
      const smtp = await startSmtpServer();
      const { messages } = smtp;
      // A second bff process on the same database, mailing over SMTP, runs the schedule.
      const mailing: FastifyInstance = await buildApp({ ...store.app.config, smtpUrl: smtp.url }, { logStream: store.logs, now: () => store.clock.now });
      await mailing.ready();
      const original = fixtures.zone['_dmarc.good.example'];
      try {
        expect(await mailing.jobs.runNow('monitor-schedule')).toBe(0);
        fixtures.zone['_dmarc.good.example'] = [{ type: 'TXT', text: 'v=DMARC1; p=none; rua=mailto:reports@good.example' }];
        await nextDay();
        expect(await mailing.jobs.runNow('monitor-schedule')).toBe(2);
        await mailing.jobs.idle();
        expect(mailing.jobs.runs('monitor-check').finished).toBe(2);
        // Due again only a day later.
        expect(await mailing.jobs.runNow('monitor-schedule')).toBe(0);

        const good = await detailOf(alice, 'good.example');
        expect(good.history).toHaveLength(2);
        const latest = good.latest as MonitorSnapshot;
        expect(latest.changes).toEqual(expect.arrayContaining([expect.objectContaining({ group: 'dmarc', kind: 'changed', after: 'v=DMARC1; p=none; rua=mailto:reports@good.example' })]));
        expect(good.history[1]?.score).toBeLessThan(good.history[0]?.score as number);
        expect(latest.providers.find((provider) => provider.provider === 'gmail')?.showsLogo).toBe(false);

        const alert = messages.find((mail) => mail.subject?.includes('good.example'));
        expect(alert?.to).toMatchObject({ text: 'alice@monitors.test' });
        expect(alert?.subject).toMatch(/health score dropped/);
        expect(alert?.text).toContain('DMARC: TXT _dmarc.good.example changed');
        expect(alert?.text).toContain('http://store.test/account/monitors/good.example');
        // A run that finds nothing new mails nothing.
        const sent = messages.length;
        await nextDay();
        expect(await mailing.jobs.runNow('monitor-schedule')).toBe(2);
        await mailing.jobs.idle();
        expect(messages.length).toBe(sent);
      } finally {
        fixtures.zone['_dmarc.good.example'] = original as (typeof fixtures.zone)[string];
        await mailing.close();
        await smtp.close();
      }
    });

    it('mails nothing for a record it could not read: the score keeps the last reading, and nothing was removed or published', async () => {
      const smtp = await startSmtpServer();
      const mailing: FastifyInstance = await buildApp({ ...store.app.config, smtpUrl: smtp.url }, { logStream: store.logs, now: () => store.clock.now });
      await mailing.ready();
      const original = fixtures.zone['_dmarc.good.example'];
      const run = async () => {
        await nextDay();
        expect(await mailing.jobs.runNow('monitor-schedule')).toBe(2);
        await mailing.jobs.idle();
        return (await detailOf(alice, 'good.example')).latest as MonitorSnapshot;
      };
      try {
        const read = await run();
        const sent = smtp.messages.length;
        // The DMARC lookup times out on every try, two runs in a row.
        fixtures.zone['_dmarc.good.example'] = { fault: 'timeout' };
        for (const outage of [await run(), await run()]) {
          expect(outage.groups.find((group) => group.group === 'dmarc')?.status).toBe('unreachable');
          expect(outage.healthScore).toBe(read.healthScore);
          expect(outage.changes.filter((change) => change.kind !== 'status')).toEqual([]);
        }
        fixtures.zone['_dmarc.good.example'] = original as (typeof fixtures.zone)[string];
        const back = await run();
        expect(back.healthScore).toBe(read.healthScore);
        expect(back.changes.filter((change) => change.kind !== 'status')).toEqual([]);
        expect(smtp.messages.slice(sent).map((mail) => mail.subject)).toEqual([]);
      } finally {
        fixtures.zone['_dmarc.good.example'] = original as (typeof fixtures.zone)[string];
        await mailing.close();
        await smtp.close();
      }
    });

    it('rate limits re-check now', async () => {
      const first = await alice.write('POST', '/api/account/monitors/good.example/check');
      expect(first.statusCode).toBe(200);
      expect(MonitorDetail.parse(first.json()).latest?.checkedAt).toBe(new Date(store.clock.now).toISOString());
      expect((await alice.write('POST', '/api/account/monitors/good.example/check')).statusCode).toBe(200);
      const third = await alice.write('POST', '/api/account/monitors/good.example/check');
      expect(third.statusCode).toBe(429);
      expect(third.json().message).toMatch(/^Too many attempts/);
    });
  });

  describe('certificate expiry alerts', () => {
    it('mails a certificate that expired once, not again on the next run', async () => {
      const mailsTo = async (to: string) => store.app.db.selectFrom('outbox_messages').select(['subject', 'text']).where('recipient', '=', to).execute();
      expect((await create(bob, 'bimi-expired-cert.example')).statusCode).toBe(201);
      const alerts = (await mailsTo('bob@monitors.test')).filter((mail) => mail.subject.includes('bimi-expired-cert.example'));
      expect(alerts.map((mail) => mail.subject)).toEqual(['BIMI Store: bimi-expired-cert.example: the mark certificate has expired']);
      expect(alerts[0]?.text).toMatch(/The mark certificate expired on \d{4}-\d{2}-\d{2}: Gmail and Apple Mail no longer show the logo/);
      const detail = await detailOf(bob, 'bimi-expired-cert.example');
      expect(detail.monitor.certificateDaysLeft).toBeLessThan(0);
      expect(detail.latest?.providers.find((provider) => provider.provider === 'gmail')?.reasons.join(' ')).toMatch(/mark certificate is not valid/);
      expect((await bob.write('POST', '/api/account/monitors/bimi-expired-cert.example/check')).statusCode).toBe(200);
      expect((await mailsTo('bob@monitors.test')).filter((mail) => mail.subject.includes('bimi-expired-cert.example'))).toHaveLength(1);
    });

    it('mails no alert to a user who turned domain monitor alerts off in the notification settings', async () => {
      const carol = await signedInUser(store, 'Carol Quiet', 'carol@monitors.test', freshClientAddress());
      const preferences = (await carol.request({ url: '/api/account/notifications' })).json();
      const saved = await carol.write('PUT', '/api/account/notifications', { ...preferences, monitorAlerts: false });
      expect(saved.json()).toMatchObject({ monitorAlerts: false });
      expect((await create(carol, 'bimi-expired-cert.example')).statusCode).toBe(201);
      // The same expired certificate mails Bob (above); Carol said no.
      expect((await carol.request({ url: '/api/account/monitors/bimi-expired-cert.example' })).json().monitor.certificateDaysLeft).toBeLessThan(0);
      const mails = await store.app.db.selectFrom('outbox_messages').select('subject').where('recipient', '=', 'carol@monitors.test').execute();
      expect(mails.map((mail) => mail.subject).filter((subject) => subject.includes('bimi-expired-cert.example'))).toEqual([]);
    });
  });

  describe('the built-in assistant', () => {
    it('answers "why is my logo not showing?" from the domain\'s own checks and keeps the conversation', async () => {
      const response = await alice.write('POST', '/api/account/monitors/dmarc-none.example/assistant', { question: 'why is my logo not showing?' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
      const events = streamEvents(response.body);
      const done = events.at(-1);
      expect(done?.type).toBe('done');
      const text = events
        .filter((event) => event.type === 'delta')
        .map((event) => (event.type === 'delta' ? event.text : ''))
        .join('');
      expect(text).toMatch(/Gmail: .*DMARC is not at enforcement/);
      expect(text).toContain('_dmarc.dmarc-none.example TXT "v=DMARC1; p=quarantine');
      const conversation = (await alice.request({ url: '/api/account/monitors/dmarc-none.example/assistant' })).json();
      expect(conversation.entries).toEqual([
        { role: 'user', text: 'why is my logo not showing?', timestamp: new Date(store.clock.now).toISOString() },
        { role: 'assistant', text, timestamp: new Date(store.clock.now).toISOString() },
      ]);
      // The record to publish keeps the domain's own rua= (issue 32); the context for a model strips addresses from the history.
      expect(text).toContain('p=quarantine; rua=mailto:dmarc@dmarc-none.example"');
      expect(conversation.context).toMatchObject({
        domainName: 'dmarc-none.example',
        autoSubmit: false,
        history: conversation.entries.map((entry: { text: string }) => ({ ...entry, text: stripSecretText(entry.text) })),
      });
      expect(Object.keys(conversation.context).sort()).toEqual(['autoSubmit', 'domainName', 'fullDomainData', 'healthScore', 'history', 'initialQuestion', 'topIssues']);
    });

    it('refuses an empty or overlong question', async () => {
      expect((await alice.write('POST', '/api/account/monitors/dmarc-none.example/assistant', { question: '  ' })).json().message).toBe('question: Please enter a question');
      expect((await alice.write('POST', '/api/account/monitors/dmarc-none.example/assistant', { question: 'x'.repeat(1001) })).statusCode).toBe(400);
    });
  });
});
