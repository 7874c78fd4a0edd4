import * as z from 'zod/mini';
import { prefetchApi } from './prefetch-api';
import { takeAnswer } from './useApi';

const Monitors = z.object({ monitors: z.array(z.string()) });
const PATH = '/api/account/monitors';

describe('prefetchApi and takeAnswer', () => {
  let calls: string[];
  let now: number;
  /** Status of each answer in turn (200 once the list runs out). */
  let statuses: number[];
  beforeEach(() => {
    // A browser's page (on the server prefetchApi asks nothing).
    Object.assign(globalThis, { window: globalThis });
    calls = [];
    statuses = [];
    now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    globalThis.fetch = jest.fn(async (url: string | URL | Request) => {
      calls.push(String(url));
      const status = statuses.shift() ?? 200;
      const body = status === 200 ? { monitors: [`answer ${calls.length}`] } : { message: 'Please sign in.' };
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
  });
  afterEach(() => {
    jest.restoreAllMocks();
    delete (globalThis as { window?: unknown }).window;
  });

  it('asks nothing on the server, where the answers come with the render', () => {
    delete (globalThis as { window?: unknown }).window;
    prefetchApi([PATH]);
    expect(calls).toEqual([]);
  });

  it('gives the page the answer asked for while its code loaded, once, then asks again', async () => {
    prefetchApi([PATH]);
    expect(calls).toEqual([PATH]);
    await expect(takeAnswer(PATH, Monitors)).resolves.toEqual({ monitors: ['answer 1'] });
    expect(calls).toHaveLength(1);
    // A reload (or the page shown again later) asks the server.
    await expect(takeAnswer(PATH, Monitors)).resolves.toEqual({ monitors: ['answer 2'] });
    expect(calls).toHaveLength(2);
  });

  it('asks again when the prefetched answer was not taken within 10 s', async () => {
    prefetchApi([PATH]);
    now += 10_001;
    await expect(takeAnswer(PATH, Monitors)).resolves.toEqual({ monitors: ['answer 2'] });
    expect(calls).toHaveLength(2);
  });

  it("checks a prefetched answer against the page's schema", async () => {
    prefetchApi([PATH]);
    await expect(takeAnswer(PATH, z.object({ monitors: z.array(z.number()) }))).rejects.toThrow();
    expect(calls).toHaveLength(1);
  });

  it('never hands a refused prefetch to the page: the page asks again and gets what the server says then', async () => {
    // Signed out when the page's code loaded (401), signed in by the time it renders.
    statuses = [401];
    prefetchApi([PATH]);
    await expect(takeAnswer(PATH, Monitors)).resolves.toEqual({ monitors: ['answer 2'] });
    expect(calls).toEqual([PATH, PATH]);
  });
});

describe('a page the server rendered for its signed-in visitor', () => {
  const DASHBOARD = '/account/dashboard';
  beforeEach(() => jest.resetModules());
  afterEach(() => {
    for (const name of ['window', 'document', 'location']) delete (globalThis as Record<string, unknown>)[name];
  });

  /** The modules as a fresh page loads them, over a page carrying `answers` in #page-state. */
  async function pageWith(answers: Record<string, unknown>) {
    const state = JSON.stringify({ session: { user: { name: 'Ada', email: 'ada@example.com', image: null }, expires: '2027-01-01T00:00:00.000Z' }, answers, phone: false });
    const location = { pathname: DASHBOARD, search: '' };
    Object.assign(globalThis, { window: globalThis, location, document: { getElementById: (id: string) => (id === 'page-state' ? { textContent: state } : null) } });
    const calls: string[] = [];
    globalThis.fetch = jest.fn(async (url: string | URL | Request) => {
      calls.push(String(url));
      return new Response(JSON.stringify({ monitors: ['asked'] }), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const useApi = (await import('./useApi')) as typeof import('./useApi');
    const prefetch = (await import('./prefetch-api')) as typeof import('./prefetch-api');
    const pageState = (await import('@bimi/session/page-state')) as typeof import('@bimi/session/page-state');
    return { calls, location, ...useApi, ...prefetch, ...pageState };
  }

  it('hydrates with the answer it was rendered with and asks nothing for it, until the page has shown it', async () => {
    const page = await pageWith({ [PATH]: { monitors: ['rendered'] } });
    expect(page.renderedAnswer(PATH)).toEqual({ monitors: ['rendered'] });
    page.prefetchApi([PATH, '/api/account/orders']);
    expect(page.calls).toEqual(['/api/account/orders']);
    page.answerShown(PATH);
    expect(page.renderedAnswer(PATH)).toBeUndefined();
    page.prefetchApi([PATH]);
    expect(page.calls).toEqual(['/api/account/orders', PATH]);
  });

  it('forgets the rendered answers once the visitor has gone to another address', async () => {
    const page = await pageWith({ [PATH]: { monitors: ['rendered'] } });
    // The shell reads the state as the page starts (bootstrap.tsx).
    expect(page.readPageState()?.answers).toEqual({ [PATH]: { monitors: ['rendered'] } });
    page.location.pathname = '/account/orders';
    expect(page.renderedAnswer(PATH)).toBeUndefined();
    page.location.pathname = DASHBOARD;
    expect(page.renderedAnswer(PATH)).toBeUndefined();
  });

  it('renders in the browser, as before, when the page state does not match its contract', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    Object.assign(globalThis, { document: { getElementById: () => ({ textContent: '{"session":{}}' }) } });
    const pageState = (await import('@bimi/session/page-state')) as typeof import('@bimi/session/page-state');
    expect(pageState.readPageState()).toBeNull();
    expect(pageState.renderedAnswer(PATH)).toBeUndefined();
  });
});
