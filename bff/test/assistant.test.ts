import { randomUUID } from 'node:crypto';
import { AssistantStreamEvent, type MonitorSnapshot } from '@bimi/contracts/monitors';
import { assistantContext, stripSecretText } from '../src/services/assistant/context';
import { startChatCompletionsDouble, type ChatCompletionsDouble } from './fixtures/openai/server';
import { startToolFixtures, type ToolFixtures } from './fixtures/tools/start';
import { type Browser, freshClientAddress, signedInUser, startIdentityStore, type IdentityStore } from './identity-fixtures';

jest.setTimeout(60_000);

// Secrets a snapshot can hold; none may reach the model.
const DKIM_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo9z+40RQzuVaE8AkAFmxZzow3x+VJYKdx';
const PEM = '-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----';
const VERIFICATION_TOKEN = 'google-site-verification=Xq8rT2mN5vK9pL3wZ7yB1cD4fG6hJ0sA';
const CONTACT = 'dmarc-reports@secret-contact.example';
const INTERNAL_ID = randomUUID();

function secretSnapshot(checkedAt: string): MonitorSnapshot {
  return {
    checkedAt,
    healthScore: 40,
    groups: [
      {
        group: 'dmarc',
        label: 'DMARC',
        status: 'warn',
        records: [{ name: '_dmarc.secrets.example', type: 'TXT', value: `v=DMARC1; p=none; rua=mailto:${CONTACT}; ruf=mailto:forensic@secret-contact.example` }],
        checks: [{ id: 'dmarc.policy.none', status: 'warn', title: 'Policy is none', detail: `Reports go to ${CONTACT}.`, fix: 'Move to p=quarantine.' }],
      },
      {
        group: 'dkim',
        label: 'DKIM',
        status: 'pass',
        records: [{ name: 'default._domainkey.secrets.example', type: 'TXT', value: `v=DKIM1; k=rsa; p=${DKIM_KEY}` }],
        checks: [{ id: 'dkim.key', status: 'pass', title: 'Key found', detail: `Monitor ${INTERNAL_ID} read the key p=${DKIM_KEY}` }],
      },
      { group: 'mx', label: 'Mail servers (MX)', status: 'pass', records: [{ name: 'secrets.example', type: 'TXT', value: VERIFICATION_TOKEN }], checks: [] },
    ],
    logo: { dataUrl: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=', reason: null, url: 'https://secrets.example/logo.svg', initial: 'S' },
    certificate: {
      present: true,
      url: 'https://secrets.example/vmc.pem',
      kind: 'VMC',
      markType: 'Registered Mark',
      subject: 'Secrets Inc',
      issuer: 'DigiCert',
      validFrom: '2026-01-01T00:00:00.000Z',
      validTo: '2027-01-01T00:00:00.000Z',
      daysLeft: 40,
      logoHashMatches: true,
      status: 'pass',
      summary: `Valid. ${PEM}`,
    },
    providers: [{ provider: 'gmail', label: 'Gmail', showsLogo: false, reasons: ['DMARC is not at enforcement.'] }],
    topIssues: [{ checkId: 'dmarc.policy.none', group: 'dmarc', status: 'warn', title: 'Policy is none', detail: `Reports go to ${CONTACT}.`, fix: 'Move to p=quarantine.' }],
    changes: [{ group: 'dkim', kind: 'changed', title: 'DKIM changed', before: `p=${DKIM_KEY}`, after: `id ${INTERNAL_ID}` }],
    dkimSelectors: ['default'],
  };
}
const SECRETS = [DKIM_KEY.slice(0, 40), 'BEGIN CERTIFICATE', 'MIIDdzCCAl', 'Xq8rT2mN5vK9pL3wZ7yB1cD4fG6hJ0sA', CONTACT, 'forensic@', INTERNAL_ID, 'PHN2ZyB4bWxucz'];

describe('the assistant context', () => {
  it('strips key material, tokens, contact addresses and internal ids, and keeps what explains the domain', () => {
    const context = assistantContext({
      domain: 'secrets.example',
      snapshot: secretSnapshot('2026-11-23T10:00:00.000Z'),
      history: [{ role: 'user', text: `mail ${CONTACT}`, timestamp: '2026-11-23T10:00:00.000Z' }],
    });
    const text = JSON.stringify(context);
    for (const secret of SECRETS) expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
    expect(text).toContain('p=none');
    expect(text).toContain('p=[key omitted]');
    expect(text).toContain('Policy is none');
    expect(text).toContain('DigiCert');
    expect(context.history[0]).toEqual({ role: 'user', text: 'mail [address omitted]', timestamp: '2026-11-23T10:00:00.000Z' });
    expect(Object.keys(context).sort()).toEqual(['autoSubmit', 'domainName', 'fullDomainData', 'healthScore', 'history', 'initialQuestion', 'topIssues']);
  });

  it('leaves ordinary words and policies alone', () => {
    expect(stripSecretText('p=quarantine or p=reject for the domain, pct=100')).toBe('p=quarantine or p=reject for the domain, pct=100');
  });
});

describe('the assistant through an OpenAI-compatible endpoint', () => {
  let fixtures: ToolFixtures;
  let double: ChatCompletionsDouble;
  let store: IdentityStore;
  let owner: Browser;

  beforeAll(async () => {
    fixtures = await startToolFixtures();
    double = await startChatCompletionsDouble();
    store = await startIdentityStore(
      { name: 'SQLite', postgres: false, redis: false },
      {
        ...fixtures.env,
        MONITOR_SCHEDULER_SECONDS: '0',
        ASSISTANT_API_URL: double.url,
        ASSISTANT_API_KEY: 'sk-test-double',
        ASSISTANT_MODEL: 'double-model-1',
        ASSISTANT_QUESTIONS_PER_HOUR: '3',
      },
    );
    store.clock.now = Date.now();
    owner = await signedInUser(store, 'Sam Secret', 'sam@assistant.test', freshClientAddress());
    expect((await owner.write('POST', '/api/account/monitors/create', { domain: 'dmarc-none.example' })).statusCode).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await store.cleanUp();
    await double.close();
    await fixtures.close();
  });

  it("streams the model's answer and sends it spec §3's context with no secret in it", async () => {
    const monitor = await store.app.monitors.get(
      (await store.app.db.selectFrom('users').select('id').where('email', '=', 'sam@assistant.test').executeTakeFirstOrThrow()).id,
      'dmarc-none.example',
    );
    await store.app.monitorSnapshots.add(monitor?.id as string, secretSnapshot(new Date(store.clock.now + 1000).toISOString()));

    const response = await owner.write('POST', '/api/account/monitors/dmarc-none.example/assistant', { question: 'why is my logo not showing?' });
    expect(response.statusCode).toBe(200);
    const events = response.body
      .split('\n')
      .filter(Boolean)
      .map((line) => AssistantStreamEvent.parse(JSON.parse(line)));
    // Streamed line by line once its records are checked (issue 32): the same text.
    expect(events.map((event) => (event.type === 'delta' ? event.text : '')).join('')).toBe(double.answerChunks.join(''));
    expect(events.at(-1)).toMatchObject({ type: 'done', source: 'model', answer: { role: 'assistant', text: double.answerChunks.join('') } });

    expect(double.requests).toHaveLength(1);
    const sent = double.requests[0];
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/chat/completions', authorization: 'Bearer sk-test-double', body: { model: 'double-model-1', stream: true } });
    const contextMessage = sent?.body.messages?.find((message) => message.content.startsWith('Assistant context (JSON): '));
    const context = JSON.parse(contextMessage?.content.slice('Assistant context (JSON): '.length) ?? '{}');
    expect(Object.keys(context).sort()).toEqual(['autoSubmit', 'domainName', 'fullDomainData', 'healthScore', 'initialQuestion', 'topIssues']);
    expect(context).toMatchObject({ domainName: 'dmarc-none.example', healthScore: 40, initialQuestion: 'why is my logo not showing?', autoSubmit: true });
    expect(sent?.body.messages?.at(-1)).toEqual({ role: 'user', content: 'why is my logo not showing?' });
    for (const secret of [...SECRETS, monitor?.id as string, monitor?.user_id as string]) {
      expect({ secret, found: sent?.raw.includes(secret) }).toEqual({ secret, found: false });
    }
  });

  it("holds the model's records to the built-in rules: a weaker policy or a dropped tag is never shown (issue 32)", async () => {
    const other = await signedInUser(store, 'Casey Cnn', 'casey@assistant.test', freshClientAddress());
    expect((await other.write('POST', '/api/account/monitors/create', { domain: 'cnn.com' })).statusCode).toBe(201);
    const chunks = double.answerChunks;
    double.answerChunks = ['To show your logo, publish:\n_dmarc.cnn.com TXT "v=DMARC1; ', 'p=quarantine"\n', 'Then wait a day.'];
    try {
      const response = await other.write('POST', '/api/account/monitors/cnn.com/assistant', { question: 'why is my logo not showing?' });
      const events = response.body
        .split('\n')
        .filter(Boolean)
        .map((line) => AssistantStreamEvent.parse(JSON.parse(line)));
      const shown = events.map((event) => (event.type === 'delta' ? event.text : '')).join('');
      expect(shown).not.toContain('p=quarantine"');
      expect(shown).toContain('[A record suggested here was left out: its policy p=quarantine is weaker than the current p=reject');
      expect(shown).toContain('Keep your current DMARC record: v=DMARC1; p=reject; pct=100; rua=mailto:cnn@rua.reports-service.example');
      expect(shown).toMatch(/^To show your logo, publish:\n/);
      expect(shown).toMatch(/\nThen wait a day\.$/);
      expect(events.at(-1)).toMatchObject({ type: 'done', source: 'model', answer: { text: shown } });
    } finally {
      double.answerChunks = chunks;
    }
  });

  it('sends the conversation so far as history, and says so in our words when the model fails', async () => {
    // The SDK tries twice (one retry); both attempts fail.
    double.failNext = { status: 500, times: 2 };
    const failing = await owner.write('POST', '/api/account/monitors/dmarc-none.example/assistant', { question: 'and DKIM?' });
    const last = failing.body
      .split('\n')
      .filter(Boolean)
      .map((line) => AssistantStreamEvent.parse(JSON.parse(line)))
      .at(-1);
    expect(last).toEqual({ type: 'error', message: 'The assistant could not answer just now. Please try again in a minute.' });
    const before = double.requests.length;
    const next = await owner.write('POST', '/api/account/monitors/dmarc-none.example/assistant', { question: 'what about SPF?' });
    expect(next.statusCode).toBe(200);
    const sent = double.requests[before];
    const roles = sent?.body.messages?.map((message) => message.role);
    // system, context, the first question and answer (the failed one is not kept), then this question.
    expect(roles?.slice(2)).toEqual(['user', 'assistant', 'user']);
    expect(sent?.body.messages?.[2]).toEqual({ role: 'user', content: 'why is my logo not showing?' });
    // Three questions an hour in these settings.
    const refused = await owner.write('POST', '/api/account/monitors/dmarc-none.example/assistant', { question: 'one more?' });
    expect(refused.statusCode).toBe(429);
  });
});
