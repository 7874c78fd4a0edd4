import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { toasts, type Toast } from '@bimi/ui/toasts';
import { loadThemed } from '../app/load-themed';
import { OptionalPart } from '../app/OptionalPart';

// Most visits show no toast: the alert cards (MUI Alert, Stack) load with the first one.
const ToastStack = lazy(loadThemed(() => import('./ToastStack').then((m) => m.ToastStack)));

/** Renders the shared toast queue (`@bimi/ui/toasts`) for every app. */
export function Toaster() {
  const { items } = useSnapshot(toasts);
  if (items.length === 0) return null;
  return (
    <OptionalPart name="toasts">
      <Suspense fallback={null}>
        <ToastStack items={items as readonly Toast[]} />
      </Suspense>
    </OptionalPart>
  );
}
