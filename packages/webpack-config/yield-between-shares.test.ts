import yieldBetweenSharesPlugin from './yield-between-shares.js';

describe('the runtime plugin that yields between shared modules', () => {
  const args = { pkgName: '@mui/material/TextField' };

  it('hands the lookup on unchanged, after a task of its own: no chain of promises runs through it in one task', async () => {
    const plugin = yieldBetweenSharesPlugin();
    let handedOn = false;
    const lookup = plugin.beforeLoadShare(args).then((result: unknown) => {
      handedOn = true;
      return result;
    });
    // Promise callbacks run in the task that queued them: ten rounds of them are not enough.
    for (let round = 0; round < 10; round++) await Promise.resolve();
    expect(handedOn).toBe(false);
    expect(await lookup).toBe(args);
  });

  it('goes on at once in a hidden tab, and when the browser refuses the yield', async () => {
    const global = globalThis as { document?: unknown; scheduler?: unknown };
    global.document = { visibilityState: 'hidden' };
    try {
      let handedOn = false;
      const lookup = yieldBetweenSharesPlugin()
        .beforeLoadShare(args)
        .then(() => (handedOn = true));
      for (let round = 0; round < 10; round++) await Promise.resolve();
      expect(handedOn).toBe(true);
      await lookup;
    } finally {
      delete global.document;
    }
    global.scheduler = { yield: () => Promise.reject(new DOMException('aborted', 'AbortError')) };
    try {
      expect(await yieldBetweenSharesPlugin().beforeLoadShare(args)).toBe(args);
    } finally {
      delete global.scheduler;
    }
  });

  it("uses the browser's scheduler.yield where there is one", async () => {
    const yielded = jest.fn(() => Promise.resolve());
    const global = globalThis as { scheduler?: unknown };
    global.scheduler = { yield: yielded };
    try {
      expect(await yieldBetweenSharesPlugin().beforeLoadShare(args)).toBe(args);
      expect(yielded).toHaveBeenCalledTimes(1);
    } finally {
      delete global.scheduler;
    }
  });
});
