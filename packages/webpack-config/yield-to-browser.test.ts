import yieldToBrowserPlugin from './yield-to-browser.js';

describe('the runtime plugin that yields to the browser', () => {
  const args = { pkgName: '@mui/material/TextField' };

  /** Whether `work` is still pending after ten rounds of promise callbacks (they run in the task that queued them). */
  async function pendingInThisTask(work: Promise<unknown>): Promise<boolean> {
    let settled = false;
    void work.then(() => (settled = true));
    for (let round = 0; round < 10; round++) await Promise.resolve();
    return !settled;
  }

  it('hands the lookup on unchanged, after a task of its own: no chain of promises runs through it in one task', async () => {
    const lookup = yieldToBrowserPlugin().beforeLoadShare(args);
    expect(await pendingInThisTask(lookup)).toBe(true);
    expect(await lookup).toBe(args);
  });

  it("runs a remote's exposed module in a task of its own, not in the one its last file arrived in", async () => {
    const factoryArgs = { id: 'account/routes', expose: './routes' };
    const running = yieldToBrowserPlugin().beforeExecuteFactory(factoryArgs);
    expect(await pendingInThisTask(running)).toBe(true);
    expect(await running).toBe(factoryArgs);
  });

  it("starts a remote's container in a task of its own, and goes on after it in another", async () => {
    const initArgs = { remoteInfo: { name: 'account' }, shareScope: {} };
    for (const hook of ['beforeInitContainer', 'initContainer'] as const) {
      const starting = yieldToBrowserPlugin()[hook](initArgs);
      expect(await pendingInThisTask(starting)).toBe(true);
      expect(await starting).toBe(initArgs);
    }
  });

  it("lets an import()'s modules run in a task after its chunks arrived, not in the last one's, wrapping webpack's loader once", async () => {
    const ensureChunk = jest.fn(() => Promise.resolve(['chunk loaded']));
    const global = globalThis as { __webpack_require__?: { e: (chunkId: string) => Promise<unknown> } };
    global.__webpack_require__ = { e: ensureChunk };
    try {
      yieldToBrowserPlugin();
      const wrapped = global.__webpack_require__.e;
      expect(wrapped).not.toBe(ensureChunk);
      yieldToBrowserPlugin();
      expect(global.__webpack_require__.e).toBe(wrapped);
      const loading = global.__webpack_require__.e('account-layout');
      expect(await pendingInThisTask(loading)).toBe(true);
      // What webpack's loader answered, unchanged.
      expect(await loading).toEqual(['chunk loaded']);
      expect(ensureChunk).toHaveBeenCalledTimes(1);
      expect(ensureChunk).toHaveBeenCalledWith('account-layout');
      // A chunk that failed still fails, at once.
      ensureChunk.mockImplementationOnce(() => Promise.reject(new Error('ChunkLoadError')));
      await expect(global.__webpack_require__.e('account-layout')).rejects.toThrow('ChunkLoadError');
    } finally {
      delete global.__webpack_require__;
    }
  });

  it('goes on at once in a hidden tab, and when the browser refuses the yield', async () => {
    const global = globalThis as { document?: unknown; scheduler?: unknown };
    global.document = { visibilityState: 'hidden' };
    try {
      const lookup = yieldToBrowserPlugin().beforeLoadShare(args);
      expect(await pendingInThisTask(lookup)).toBe(false);
      expect(await lookup).toBe(args);
    } finally {
      delete global.document;
    }
    global.scheduler = { yield: () => Promise.reject(new DOMException('aborted', 'AbortError')) };
    try {
      expect(await yieldToBrowserPlugin().beforeLoadShare(args)).toBe(args);
    } finally {
      delete global.scheduler;
    }
  });

  it("uses the browser's scheduler.yield where there is one", async () => {
    const yielded = jest.fn(() => Promise.resolve());
    const global = globalThis as { scheduler?: unknown };
    global.scheduler = { yield: yielded };
    try {
      expect(await yieldToBrowserPlugin().beforeLoadShare(args)).toBe(args);
      expect(yielded).toHaveBeenCalledTimes(1);
    } finally {
      delete global.scheduler;
    }
  });
});
