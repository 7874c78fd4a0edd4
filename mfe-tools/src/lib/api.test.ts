import type { ToolAnswer } from '@bimi/contracts/tools';
import { runTool, ToolRequestError, validateUploadedVmc } from './api';

const ANSWER: ToolAnswer<'dkim'> = {
  tool: 'dkim',
  query: { domain: 'example.com' },
  records: [{ name: 'default._domainkey.example.com', type: 'TXT', value: 'v=DKIM1; k=ed25519; p=' }],
  checks: [{ id: 'dkim.key.revoked', status: 'fail', title: 'The key is revoked', detail: 'p= is empty', fix: 'Publish the key you sign with.' }],
  score: 0,
  details: { domain: 'example.com', tried: ['default'], selectors: [] },
};

/** A fetch that records what it was asked and answers with one canned Response. */
function fetchAnswering(response: () => Response | Promise<Response>) {
  const calls: { url: string; init?: RequestInit | undefined }[] = [];
  const fake = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    return response();
  }) as typeof fetch;
  return { fake, calls };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

async function failureOf(promise: Promise<unknown>): Promise<ToolRequestError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ToolRequestError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('runTool', () => {
  it('asks GET /api/tools/<tool> with the query, leaving empty values out, and returns the parsed answer', async () => {
    const { fake, calls } = fetchAnswering(() => json(ANSWER));
    await expect(runTool('dkim', { domain: 'example.com', selector: '' }, { fetch: fake })).resolves.toEqual(ANSWER);
    expect(calls[0]?.url).toBe('/api/tools/dkim?domain=example.com');
  });

  it("passes a 4xx answer's message through", async () => {
    const { fake } = fetchAnswering(() => json({ message: 'example.invalid is not a domain' }, 400));
    const error = await failureOf(runTool('dmarc', { domain: 'x' }, { fetch: fake }));
    expect(error).toMatchObject({ kind: 'rejected', status: 400, message: 'example.invalid is not a domain' });
  });

  it('says when to try again after a rate limit', async () => {
    const { fake } = fetchAnswering(() => json({ message: 'Rate limit exceeded' }, 429, { 'retry-after': '30' }));
    const error = await failureOf(runTool('spf', { domain: 'example.com' }, { fetch: fake }));
    expect(error).toMatchObject({ kind: 'rate-limited', status: 429, message: 'Too many checks from your network. Please try again in 30 seconds.' });
  });

  it('hides a 5xx message and reports a network failure in plain words', async () => {
    const server = await failureOf(runTool('txt', { name: 'a.example' }, { fetch: fetchAnswering(() => json({ message: 'stack trace' }, 500)).fake }));
    expect(server).toMatchObject({ kind: 'server', message: 'The server could not finish the check. Please try again.' });
    const offline = await failureOf(runTool('txt', { name: 'a.example' }, { fetch: (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch }));
    expect(offline).toMatchObject({ kind: 'network', message: 'Could not reach the server. Check your connection and try again.' });
  });

  it('refuses an answer that does not match the contract, or is not JSON', async () => {
    const wrongShape = await failureOf(runTool('bimi', { domain: 'example.com' }, { fetch: fetchAnswering(() => json({ checks: 'all good' })).fake }));
    expect(wrongShape.kind).toBe('malformed');
    // The right shape from the wrong tool is no answer to the question either.
    const otherTool = await failureOf(runTool('dmarc', { domain: 'example.com' }, { fetch: fetchAnswering(() => json(ANSWER)).fake }));
    expect(otherTool.kind).toBe('malformed');
    const notJson = await failureOf(runTool('bimi', { domain: 'example.com' }, { fetch: fetchAnswering(() => new Response('<html>', { status: 200 })).fake }));
    expect(notJson.kind).toBe('malformed');
  });

  it('reports an aborted request as cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const aborted = await failureOf(
      runTool('dmarc', { domain: 'example.com' }, { signal: controller.signal, fetch: ((_url: string, init: RequestInit) => Promise.reject(init.signal?.reason as Error)) as typeof fetch }),
    );
    expect(aborted.kind).toBe('aborted');
  });
});

describe('validateUploadedVmc', () => {
  it('posts the PEM as JSON to /api/tools/vmc', async () => {
    const { fake, calls } = fetchAnswering(() => json({ tool: 'vmc', query: {}, records: [], checks: ANSWER.checks, score: 0 }));
    await validateUploadedVmc({ pem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' }, { fetch: fake });
    expect(calls[0]?.url).toBe('/api/tools/vmc');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ pem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' });
  });
});
