import { dismissToast, showToast, toasts, DEFAULT_TOAST_MS } from './toasts';

describe('toasts', () => {
  beforeEach(() => {
    toasts.items.splice(0);
  });

  it('queues a toast with the default severity and the spec duration of 5 s', () => {
    const id = showToast({ message: 'Example added to cart' });
    expect(toasts.items).toEqual([{ id, message: 'Example added to cart', severity: 'info', durationMs: DEFAULT_TOAST_MS }]);
    expect(DEFAULT_TOAST_MS).toBe(5000);
  });

  it('dismisses only the toast named', () => {
    const first = showToast({ message: 'one', severity: 'success' });
    const second = showToast({ message: 'two', severity: 'error', durationMs: 3000 });
    dismissToast(first);
    expect(toasts.items.map((toast) => toast.id)).toEqual([second]);
    dismissToast(999);
    expect(toasts.items).toHaveLength(1);
  });
});
