import { isAnswerOf, ToolAnswer, type ToolName } from '@bimi/contracts/tools';
import type { LightMyRequestResponse } from 'fastify';
import { startTestStore, type TestStore } from './fixtures';
import { startToolFixtures, type ToolFixtures } from './fixtures/tools/start';

export interface ToolStore {
  readonly fixtures: ToolFixtures;
  readonly store: TestStore;
  /** A GET as a visitor at `remoteAddress` (loopback unless given). */
  get(url: string, remoteAddress?: string): Promise<LightMyRequestResponse>;
  /** GET /api/tools/<tool>?<query>: 200 and an answer of that tool, valid by its schema, or the test fails. */
  answer<Tool extends ToolName>(tool: Tool, query: string): Promise<ToolAnswer<Tool>>;
}

/**
 * A bff on the tool fixtures (the fixture DNS server over UDP and TCP, the fixture HTTPS server
 * with its test CAs), started before the file's tests and stopped after them. Call it at the top of
 * a test file. A DNS timeout shorter than the default keeps the unanswered-query cases quick, yet
 * long enough that an answered query on a busy 2-core machine never looks unanswered (the cache is
 * on, 60 s). The worker threads that read certificates and logos are started here, as a loaded
 * machine can take seconds to, outside any test's time.
 */
export function useToolStore(): ToolStore {
  let fixtures: ToolFixtures | undefined;
  let store: TestStore | undefined;
  beforeAll(async () => {
    fixtures = await startToolFixtures();
    store = await startTestStore({ ...fixtures.env, TOOLS_DNS_TIMEOUT_MS: '1000', TOOLS_RATE_LIMIT_PER_MINUTE: '1000' });
    await store.app.untrustedFiles.warmUp();
  }, 60_000);
  afterAll(async () => {
    await store?.cleanUp();
    await fixtures?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the tool store is used before its beforeAll ran');
    return value;
  };
  const get = (url: string, remoteAddress = '127.0.0.1') => started(store).app.inject({ url, remoteAddress });
  return {
    get fixtures() {
      return started(fixtures);
    },
    get store() {
      return started(store);
    },
    get,
    async answer(tool, query) {
      const response = await get(`/api/tools/${tool}?${query}`);
      expect(response.statusCode).toBe(200);
      const answer = ToolAnswer.parse(response.json());
      if (!isAnswerOf(answer, tool)) throw new Error(`/api/tools/${tool} answered as the ${answer.tool} tool`);
      return answer;
    },
  };
}
