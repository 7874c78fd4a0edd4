import yieldToBrowserPlugin from './yield-to-browser.js';

describe('the runtime plugin that yields to the browser', () => {
  const args = { pkgName: '@mui/material/TextField' };

  it('hands the lookup on unchanged, after a task of its own: no chain of promises runs through it in one task', async () => {
    const plugin = yieldToBrowserPlugin();
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

  it("runs a remote's exposed module in a task of its own, not in the one its last file arrived in", async () => {
    const factoryArgs = { id: 'account/routes', expose: './routes' };
    let ran = false;
    const running = yieldToBrowserPlugin()
      .beforeExecuteFactory(factoryArgs)
      .then((result: unknown) => {
        ran = true;
        return result;
      });
    for (let round = 0; round < 10; round++) await Promise.resolve();
    expect(ran).toBe(false);
    expect(await running).toBe(factoryArgs);
  });

  it('goes on at once in a hidden tab, and when the browser refuses the yield', async () => {
    const global = globalThis as { document?: unknown; scheduler?: unknown };
    global.document = { visibilityState: 'hidden' };
    try {
      let handedOn = false;
      const lookup = yieldToBrowserPlugin()
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
