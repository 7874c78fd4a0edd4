import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { summarize, VmcAnswer, type Check, type ToolAnswer } from '@bimi/contracts/tools';
import { startTestStore, type TestStore } from './fixtures';
import { TOOLS_BUSY } from '../src/routes/api/tools';
import { useToolStore } from './tool-store';

// Real peers: the fixture DNS server (UDP+TCP) and the fixture HTTPS server on loopback.
const tools = useToolStore();
const { get, answer } = tools;
const check = (result: ToolAnswer, id: string): Check | undefined => result.checks.find((item) => item.id === id);
const statuses = (result: ToolAnswer) => Object.fromEntries(result.checks.map((item) => [item.id, item.status]));

describe('tool input', () => {
  it.each([
    ['/api/tools/dmarc', /^domain: /],
    ['/api/tools/dmarc?domain=', /^domain: Please enter a domain name/],
    ['/api/tools/spf?domain=not%20a%20domain', /^domain: Please enter a valid domain name \(e\.g\., example\.com\)/],
    ['/api/tools/records?domain=192.0.2.1', /^domain: Please enter a domain name, not an IP address/],
    ['/api/tools/records?domain=localhost', /^domain: Please enter a valid domain name/],
    ['/api/tools/dkim?domain=good.example&selector=bad%20selector!', /^selector: A selector is/],
    ['/api/tools/vmc', /Give either a domain or the https:\/\/ address/],
    ['/api/tools/vmc?domain=good.example&url=https://x.example/a.pem', /Give either a domain/],
    ['/api/tools/vmc?url=http://x.example/a.pem', /^url: Enter an https:\/\/ address/],
    ['/api/tools/txt?name=', /^name: Please enter a DNS name/],
  ])('GET %s is a 400 saying what is wrong', async (url, message) => {
    const response = await get(url);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it('accepts a pasted URL or address and looks up its domain', async () => {
    expect((await answer('dmarc', 'domain=https://Good.Example/path')).query).toEqual({ domain: 'good.example' });
    expect((await answer('spf', 'domain=postmaster@good.example')).query).toEqual({ domain: 'good.example' });
  });
});

describe('DMARC, SPF and DKIM through the fixture DNS server', () => {
  it('passes a domain with p=reject and grades p=none lower', async () => {
    const good = await answer('dmarc', 'domain=good.example');
    expect(summarize(good.checks)).not.toBe('fail');
    expect(good.records).toEqual([expect.objectContaining({ name: '_dmarc.good.example', type: 'TXT', value: expect.stringMatching(/^v=DMARC1; p=reject/) })]);
    const none = await answer('dmarc', 'domain=dmarc-none.example');
    expect(none.score).toBeLessThanOrEqual(50);
    expect(none.score).toBeLessThan(good.score as number);
    expect(none.checks.some((item) => item.status !== 'pass' && item.fix)).toBe(true);
    expect(summarize((await answer('dmarc', 'domain=dmarc-missing.example')).checks)).toBe('absent');
  });

  it('counts SPF lookups past the limit of 10 and finds include loops', async () => {
    const many = await answer('spf', 'domain=spf-too-many-lookups.example');
    expect(many.checks.find((item) => item.status === 'fail' && /10/.test(item.detail))).toBeTruthy();
    const loop = await answer('spf', 'domain=spf-loop.example');
    expect(loop.checks.find((item) => item.status === 'fail' && /loop/i.test(`${item.title} ${item.detail}`))).toBeTruthy();
    expect(summarize((await answer('spf', 'domain=good.example')).checks)).not.toBe('fail');
  });

  it('reads a 2048-bit DKIM key over TCP (the answer is too long for UDP) and flags a 1024-bit one', async () => {
    const good = await answer('dkim', 'domain=good.example&selector=selector1');
    expect(good.records[0]?.value.length).toBeGreaterThan(400);
    expect(summarize(good.checks)).toBe('pass');
    const weak = await answer('dkim', 'domain=dkim-1024.example&selector=default');
    expect(weak.checks.some((item) => item.status !== 'pass' && /1024/.test(item.detail))).toBe(true);
  });

  it('tries the common selectors when none is given', async () => {
    const found = await answer('dkim', 'domain=good.example');
    expect(found.records.map((record) => record.name)).toEqual(expect.arrayContaining(['default._domainkey.good.example']));
  });
});

describe('DNS failures are checks in a 200 answer, never a 500, and are not cached', () => {
  it.each([
    ['dns-servfail.example', /SERVFAIL/],
    ['dns-timeout.example', /did not answer in time/],
  ])(
    '%s',
    async (domain, words) => {
      for (const tool of ['dmarc', 'spf', 'records', 'bimi'] as const) {
        const result = await answer(tool, `domain=${domain}`);
        // Could not ask is not "wrong" (issue 17), in every tool: the lookup is `unreachable`, and the answer says so without a score.
        expect(result.checks.some((item) => item.status === 'unreachable' && words.test(item.detail))).toBe(true);
        expect(result.verdict).toMatchObject({ status: 'unreachable', headline: expect.stringMatching(/Try again/) });
        expect(result.score).toBeUndefined();
      }
      const again = await get(`/api/tools/dmarc?domain=${domain}`);
      expect(again.headers['x-tool-cache']).toBe('miss');
      // Unanswered queries wait out the DNS timeout, two tries each, in several tools in turn.
    },
    30_000,
  );
});

describe('answer cache', () => {
  it('answers the same question within a minute without asking DNS again', async () => {
    const first = await get('/api/tools/records?domain=dmarc-no-rua.example');
    expect(first.headers['x-tool-cache']).toBe('miss');
    const queries = tools.fixtures.dns.queries;
    const second = await get('/api/tools/records?domain=DMARC-NO-RUA.example.');
    expect(second.headers['x-tool-cache']).toBe('hit');
    expect(second.json()).toEqual(first.json());
    expect(tools.fixtures.dns.queries).toBe(queries);
  });
});

describe("each tool's schema carries its whole answer", () => {
  // An answer is encoded with its tool's schema, which would drop a field the schema does not name:
  // the answer sent must be the one the checkers built (the cache keeps it), field for field.
  it.each([
    ['dmarc', { domain: 'dmarc-quarantine-pct.example' }],
    ['spf', { domain: 'spf-flatten.example' }],
    ['spf', { domain: 'good.example', ip: '192.0.2.10' }],
    ['dkim', { domain: 'good.example' }],
    ['bimi', { domain: 'bimi-good.example' }],
    ['vmc', { domain: 'bimi-good.example' }],
    ['txt', { name: 'good.example' }],
    ['cname', { name: 'alias.good.example' }],
    ['records', { domain: 'good.example' }],
  ] as const)('%s %o', async (tool, query) => {
    const sent = await get(`/api/tools/${tool}?${new URLSearchParams(query)}`);
    expect(sent.statusCode).toBe(200);
    const built = await tools.store.app.toolAnswers.answer(tool, query, () => Promise.reject(new Error('the answer was not cached')));
    expect(sent.json()).toEqual(JSON.parse(JSON.stringify(built.answer)));
  });
});

describe('rate limit', () => {
  it('limits each address per tool route and minute', async () => {
    const limited = await startTestStore({ ...tools.fixtures.env, TOOLS_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect((await limited.app.inject({ url: '/api/tools/txt?name=good.example', remoteAddress: '203.0.113.9' })).statusCode).toBe(200);
      }
      const refused = await limited.app.inject({ url: '/api/tools/txt?name=good.example', remoteAddress: '203.0.113.9' });
      expect(refused.statusCode).toBe(429);
      // Every route's 429 is in our words, with the wait (plugins/external/rate-limit.ts).
      expect(refused.json().message).toBe('Too many attempts. Try again in 1 minute.');
      expect((await limited.app.inject({ url: '/api/tools/txt?name=good.example', remoteAddress: '203.0.113.10' })).statusCode).toBe(200);
    } finally {
      await limited.cleanUp();
    }
  });
});

describe('concurrency limit', () => {
  it('works out TOOLS_CONCURRENCY answers at once across all visitors, as many wait, and asks the rest to try again', async () => {
    const limited = await startTestStore({ ...tools.fixtures.env, TOOLS_CONCURRENCY: '1', TOOLS_DNS_TIMEOUT_MS: '300' });
    try {
      // Three visitors, three different questions that each wait on DNS that never answers.
      const asks = ['a', 'b', 'c'].map((label, index) => limited.app.inject({ url: `/api/tools/txt?name=${label}.dns-timeout.example`, remoteAddress: `203.0.113.${20 + index}` }));
      const answers = await Promise.all(asks);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 503]);
      const busy = answers.find((answer) => answer.statusCode === 503);
      expect(busy?.json().message).toBe(TOOLS_BUSY);
      expect(busy?.headers['retry-after']).toBeDefined();
      // Once the work is done, the next visitor is answered.
      expect((await limited.app.inject({ url: '/api/tools/txt?name=good.example', remoteAddress: '203.0.113.30' })).statusCode).toBe(200);
    } finally {
      await limited.cleanUp();
    }
  }, 30_000);
});

describe('records, TXT and CNAME', () => {
  it('reads every record type and the mail records of a domain at once', async () => {
    const result = await answer('records', 'domain=good.example');
    expect(statuses(result)).toEqual({
      'records.a': 'pass',
      'records.aaaa': 'pass',
      'records.mx': 'pass',
      'records.ns': 'pass',
      'records.soa': 'pass',
      'records.txt': 'pass',
      'records.caa': 'pass',
      'records.dmarc': 'pass',
      'records.spf': 'pass',
      'records.bimi': 'pass',
      'records.mta-sts': 'pass',
      'records.tls-rpt': 'pass',
    });
    expect(result.records).toEqual(
      expect.arrayContaining([
        { name: 'good.example', type: 'MX', value: '10 mx1.good.example' },
        { name: 'good.example', type: 'CAA', value: '0 issue "letsencrypt.org"' },
        { name: '_smtp._tls.good.example', type: 'TXT', value: 'v=TLSRPTv1; rua=mailto:tls-reports@good.example' },
      ]),
    );
    const missing = await answer('records', 'domain=dmarc-missing.example');
    expect(check(missing, 'records.dmarc')).toMatchObject({ status: 'warn', fix: expect.any(String) });
    expect(check(await answer('records', 'domain=spf-multiple.example'), 'records.spf')?.status).toBe('fail');
  });

  it('lists TXT records with what each is for', async () => {
    const result = await answer('txt', 'name=good.example');
    expect(result.records.map((record) => record.value)).toContain('v=spf1 mx ip4:192.0.2.0/24 include:_spf.good.example -all');
    expect(check(result, 'txt.kinds')?.detail).toMatch(/SPF/);
    expect(check(await answer('txt', 'name=nothing-here.example'), 'txt.lookup')).toMatchObject({ status: 'info', detail: 'nothing-here.example does not exist in DNS.' });
    expect(check(await answer('txt', 'name=_dmarc.dmarc-multiple.example'), 'txt.duplicate.dmarc')?.status).toBe('fail');
  });

  it('follows a CNAME chain to an address', async () => {
    const result = await answer('cname', 'name=alias.good.example');
    expect(result.details?.chain).toEqual(['alias.good.example', 'www.good.example', 'good.example']);
    expect(statuses(result)).toEqual({ 'cname.lookup': 'pass', 'cname.target': 'pass' });
    expect(check(await answer('cname', 'name=good.example'), 'cname.lookup')?.status).toBe('info');
  });
});

describe('BIMI and mark certificates', () => {
  it('passes bimi-good.example: record, DMARC, Tiny PS logo and a VMC holding that logo', async () => {
    const result = await answer('bimi', 'domain=bimi-good.example');
    expect(result.checks.filter((item) => item.status === 'fail' || item.status === 'warn')).toEqual([]);
    expect(result.score).toBe(100);
    expect(result.details.certificate).toMatchObject({
      markType: 'Registered Mark',
      certificateType: 'VMC',
      subjectAltNames: expect.arrayContaining(['bimi-good.example']),
      trademarkOffice: 'USPTO',
    });
    expect(result.details.logo).toMatchObject({ dataUrl: expect.stringMatching(/^data:image\/svg\+xml;base64,/) });
    expect(check(result, 'vmc.logo-match')?.status).toBe('pass');
  });

  it('fails a logo that is not SVG Tiny PS', async () => {
    const result = await answer('bimi', 'domain=bimi-bad-svg.example');
    expect(result.checks.filter((item) => item.status === 'fail').length).toBeGreaterThan(1);
    expect(result.checks.some((item) => item.status === 'fail' && /script/i.test(`${item.title} ${item.detail}`))).toBe(true);
  });

  it.each([
    ['bimi-logo-mismatch.example', 'vmc.logo-match', 'fail'],
    ['bimi-expired-cert.example', 'vmc.validity', 'fail'],
    ['bimi-wrong-domain-cert.example', 'vmc.domain', 'fail'],
    ['bimi-cmc.example', 'vmc.mark-type', 'pass'],
  ])('%s: %s is %s', async (domain, id, status) => {
    for (const tool of ['bimi', 'vmc'] as const) expect(check(await answer(tool, `domain=${domain}`), id)?.status).toBe(status);
  });

  it('finds a record at a given selector', async () => {
    expect(check(await answer('bimi', 'domain=bimi-selector.example&selector=brand'), 'vmc.chain')?.status).toBe('pass');
  });

  it('checks BIMI’s DMARC prerequisites', async () => {
    const result = await answer('bimi', 'domain=bimi-no-dmarc.example');
    expect(result.checks.some((item) => item.id.startsWith('bimi.dmarc') && item.status === 'fail')).toBe(true);
  });

  it('validates a certificate by its address and an uploaded one', async () => {
    const byUrl = await answer('vmc', `url=${tools.fixtures.origin}/cmc/vmc.pem`);
    expect(byUrl.details?.certificate).toMatchObject({ markType: 'Prior Use Mark', certificateType: 'CMC' });
    const paypal = readFileSync(join(__dirname, 'fixtures', 'tools', 'certs', 'paypal_vmc.pem'), 'utf8');
    const upload = await tools.store.app.inject({ method: 'POST', url: '/api/tools/vmc', payload: { pem: paypal, domain: 'paypal.com' } });
    expect(upload.statusCode).toBe(200);
    // A real DigiCert VMC, expired in September 2025: trusted, but no longer valid.
    expect(statuses(VmcAnswer.parse(upload.json()))).toMatchObject({ 'vmc.chain': 'pass', 'vmc.validity': 'fail', 'vmc.domain': 'pass', 'vmc.mark-type': 'pass' });
    const garbage = await tools.store.app.inject({ method: 'POST', url: '/api/tools/vmc', payload: { pem: 'hello' } });
    expect(statuses(VmcAnswer.parse(garbage.json()))).toEqual({ 'vmc.pem': 'fail' });
    const huge = await tools.store.app.inject({ method: 'POST', url: '/api/tools/vmc', payload: { pem: 'x'.repeat(70_000) } });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().message).toMatch(/larger than 64 KB/);
  });

  it.each([
    ['bimi-no-certificate.example', 'vmc.record', /no a= tag/],
    ['bimi-missing.example', 'vmc.record', /has no BIMI record/],
  ])('VMC for %s: %s', async (domain, id, words) => {
    expect(check(await answer('vmc', `domain=${domain}`), id)?.detail).toMatch(words);
  });

  it('reads the BIMI record the BIMI checker reads: a subdomain without one of its own gets its parent domain’s certificate checked', async () => {
    const [vmc, bimi] = [await answer('vmc', 'domain=mail.good.example'), await answer('bimi', 'domain=mail.good.example')];
    expect(check(bimi, 'bimi.record.inherited')).toBeDefined();
    expect(vmc.records.map((record) => record.name)).toEqual(['default._bimi.good.example']);
    expect(check(vmc, 'vmc.record')).toBeUndefined();
    const certificateChecks = (result: ToolAnswer) =>
      Object.fromEntries(result.checks.filter((item) => item.id.startsWith('vmc.') && item.id !== 'vmc.logo-fetch').map((item) => [item.id, item.status]));
    expect(Object.keys(certificateChecks(vmc)).length).toBeGreaterThan(3);
    expect(certificateChecks(vmc)).toEqual(certificateChecks(bimi));
  });
});

describe('fetch refusals (no request leaves for a private address)', () => {
  it.each([
    ['bimi-private-logo.example', /resolves to 10\.0\.0\.7/],
    ['bimi-metadata-logo.example', /169\.254\.169\.254 is a private, local or reserved address/],
    ['bimi-redirect-private.example', /resolves to 10\.0\.0\.7/],
    ['bimi-redirect-loop.example', /redirects more than 3 times/],
    ['bimi-huge-logo.example', /larger than 40 KB/],
    ['bimi-missing-logo.example', /answered HTTP 404/],
  ])('the logo of %s', async (domain, words) => {
    const result = await answer('bimi', `domain=${domain}`);
    expect(check(result, 'bimi.logo.fetch')).toMatchObject({ status: 'fail', detail: expect.stringMatching(words), fix: expect.any(String) });
  });

  describe('with loopback not allowed (the production setting)', () => {
    let strict: TestStore;
    beforeAll(async () => {
      strict = await startTestStore({ DNS_SERVERS: tools.fixtures.env.DNS_SERVERS, TOOLS_EXTRA_CA_FILE: tools.fixtures.env.TOOLS_EXTRA_CA_FILE, TOOLS_RATE_LIMIT_PER_MINUTE: '1000' });
    });
    afterAll(() => strict.cleanUp());

    it.each([
      'https://127.0.0.1:PORT/good/vmc.pem',
      'https://[::ffff:127.0.0.1]:PORT/good/vmc.pem',
      'https://[::1]:PORT/good/vmc.pem',
      'https://10.1.2.3/vmc.pem',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fd00:ec2::254]/latest/',
      'https://100.64.0.1/vmc.pem',
      'https://0.0.0.0/vmc.pem',
      'https://logos.fixture.example:PORT/good/vmc.pem',
      'https://mapped.fixture.example:PORT/good/vmc.pem',
      // IPv6 forms that reach an IPv4 address (issue 10, finding 7): IPv4-compatible, NAT64, 6to4.
      'https://[::127.0.0.1]:PORT/good/vmc.pem',
      'https://[::a9fe:a9fe]/latest/meta-data/',
      'https://[::a00:1]/vmc.pem',
      'https://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
      'https://[2002:a9fe:a9fe::1]/latest/meta-data/',
    ])('refuses %s (PORT: the fixture HTTPS server)', async (target) => {
      const url = target.replace('PORT', String(tools.fixtures.https.port));
      const response = await strict.app.inject({ url: `/api/tools/vmc?url=${encodeURIComponent(url)}` });
      expect(response.statusCode).toBe(200);
      expect(check(VmcAnswer.parse(response.json()), 'vmc.fetch')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/private, local or reserved address/) });
    });
  });

  it('refuses TOOLS_ALLOW_LOOPBACK in production', async () => {
    await expect(startTestStore({ ...tools.fixtures.env, NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) })).rejects.toThrow(
      /TOOLS_ALLOW_LOOPBACK must not be true when NODE_ENV is production/,
    );
  });
});
