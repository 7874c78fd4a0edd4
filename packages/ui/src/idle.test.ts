/** The idle helper in a stand-in window: an EventTarget with a requestIdleCallback the test runs by hand. */
const idleCallbacks = new Map<number, () => void>();
let nextHandle = 1;
const fakeWindow = Object.assign(new EventTarget(), {
  requestIdleCallback: (callback: () => void) => {
    idleCallbacks.set(nextHandle, callback);
    return nextHandle++;
  },
  cancelIdleCallback: (handle: number) => idleCallbacks.delete(handle),
});
(globalThis as unknown as { window: typeof fakeWindow }).window = fakeWindow;

const runIdle = () => {
  const callbacks = [...idleCallbacks.values()];
  idleCallbacks.clear();
  callbacks.forEach((callback) => callback());
};

describe('whenIdleAfterVisitorActs', () => {
  // A fresh module per test: whether the visitor acted is kept per page.
  let idle: typeof import('./idle');
  beforeEach(async () => {
    jest.resetModules();
    idleCallbacks.clear();
    idle = await import('./idle');
  });

  it('runs nothing while the visitor has not acted, however idle the browser is', () => {
    const task = jest.fn();
    idle.whenIdleAfterVisitorActs(task);
    runIdle();
    expect(task).not.toHaveBeenCalled();
  });

  it('runs the task on the first idle moment after the visitor acts, once', () => {
    const task = jest.fn();
    idle.whenIdleAfterVisitorActs(task);
    fakeWindow.dispatchEvent(new Event('pointermove'));
    expect(task).not.toHaveBeenCalled();
    runIdle();
    fakeWindow.dispatchEvent(new Event('scroll'));
    runIdle();
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('waits only for idle once the visitor has acted on the page', () => {
    idle.whenIdleAfterVisitorActs(() => {});
    fakeWindow.dispatchEvent(new Event('keydown'));
    const later = jest.fn();
    idle.whenIdleAfterVisitorActs(later);
    runIdle();
    expect(later).toHaveBeenCalledTimes(1);
  });

  it('is cancelled before and after the visitor acts', () => {
    const before = jest.fn();
    idle.whenIdleAfterVisitorActs(before)();
    fakeWindow.dispatchEvent(new Event('touchstart'));
    const after = jest.fn();
    const cancel = idle.whenIdleAfterVisitorActs(after);
    cancel();
    runIdle();
    expect(before).not.toHaveBeenCalled();
    expect(after).not.toHaveBeenCalled();
  });
});
