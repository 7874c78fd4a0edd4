import * as z from 'zod/mini';
import { prefetchApi, takeAnswer } from './useApi';

const Monitors = z.object({ monitors: z.array(z.string()) });
const PATH = '/api/account/monitors';

describe('prefetchApi and takeAnswer', () => {
  let calls: string[];
  let now: number;
  /** Status of each answer in turn (200 once the list runs out). */
  let statuses: number[];
  beforeEach(() => {
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
  afterEach(() => jest.restoreAllMocks());

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
