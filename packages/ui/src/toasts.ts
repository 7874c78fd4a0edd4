import { proxy } from 'valtio';

/** How long a toast stays when its caller names no duration (spec §9: toast 5 s). */
export const DEFAULT_TOAST_MS = 5000;

export type ToastSeverity = 'success' | 'info' | 'warning' | 'error';

export interface ToastAction {
  label: string;
  /** Runs on click; the toast closes afterwards. Leave it out for a plain "Dismiss". */
  onClick?: () => void;
}

export interface Toast {
  id: number;
  title?: string;
  message: string;
  severity: ToastSeverity;
  durationMs: number;
  action?: ToastAction;
}

export type ToastInput = Omit<Toast, 'id' | 'severity' | 'durationMs'> & Partial<Pick<Toast, 'severity' | 'durationMs'>>;

/**
 * The site's toasts. Any remote may show one (the package is a Module Federation singleton);
 * the shell's Toaster renders them, newest last, and removes each after its duration.
 */
export const toasts = proxy<{ items: Toast[] }>({ items: [] });

let nextId = 1;

export function showToast(input: ToastInput): number {
  const toast: Toast = { severity: 'info', durationMs: DEFAULT_TOAST_MS, ...input, id: nextId++ };
  toasts.items.push(toast);
  return toast.id;
}

export function dismissToast(id: number): void {
  const index = toasts.items.findIndex((toast) => toast.id === id);
  if (index !== -1) toasts.items.splice(index, 1);
}
