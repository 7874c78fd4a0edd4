import { signOut } from '@bimi/session/client';
import { toasts } from '@bimi/ui/toasts';
import { expireSession, IDLE_CHECK_EVERY_MS, IDLE_LIMIT_MS, SESSION_EXPIRED_MESSAGE, watchIdle } from './idle-session';

jest.mock('@bimi/session/client', () => ({ signOut: jest.fn(async () => ({ url: '/auth/signin' })) }));

const page = new EventTarget();

beforeEach(() => {
  jest.useFakeTimers();
  Object.assign(globalThis, { window: globalThis });
  toasts.items = [];
});
afterEach(() => jest.useRealTimers());

describe('watchIdle', () => {
  it('fires at the first check after 2 hours without activity, once', () => {
    const onIdle = jest.fn();
    watchIdle(onIdle, page);
    jest.advanceTimersByTime(IDLE_LIMIT_MS - 1);
    expect(onIdle).not.toHaveBeenCalled();
    // 7,200,000 is a whole number of 60 s checks: the check at exactly 2 hours sees the limit reached.
    jest.advanceTimersByTime(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(IDLE_LIMIT_MS * 2);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it.each(['mousemove', 'keydown', 'scroll', 'touchstart'])('starts the 2 hours again on %s', (type) => {
    const onIdle = jest.fn();
    const stop = watchIdle(onIdle, page);
    jest.advanceTimersByTime(IDLE_LIMIT_MS - 5 * IDLE_CHECK_EVERY_MS);
    page.dispatchEvent(new Event(type));
    jest.advanceTimersByTime(IDLE_LIMIT_MS - IDLE_CHECK_EVERY_MS);
    expect(onIdle).not.toHaveBeenCalled();
    jest.advanceTimersByTime(IDLE_CHECK_EVERY_MS);
    expect(onIdle).toHaveBeenCalledTimes(1);
    stop();
  });

  it('stops watching when asked', () => {
    const onIdle = jest.fn();
    watchIdle(onIdle, page)();
    jest.advanceTimersByTime(IDLE_LIMIT_MS * 2);
    expect(onIdle).not.toHaveBeenCalled();
  });
});

it('expiry shows the toast for 5 s with Dismiss, redirects after 1 s and signs out after 1.5 s', () => {
  const goTo = jest.fn();
  expireSession(goTo);
  expect(toasts.items).toEqual([expect.objectContaining({ message: SESSION_EXPIRED_MESSAGE, durationMs: 5000, action: { label: 'Dismiss' } })]);
  jest.advanceTimersByTime(999);
  expect(goTo).not.toHaveBeenCalled();
  jest.advanceTimersByTime(1);
  expect(goTo).toHaveBeenCalledWith('/auth/signin?message=session_expired');
  jest.advanceTimersByTime(499);
  expect(signOut).not.toHaveBeenCalled();
  jest.advanceTimersByTime(1);
  expect(signOut).toHaveBeenCalledWith({ redirect: false });
});
