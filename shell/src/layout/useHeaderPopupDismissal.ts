import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * The ways a header popup (a dropdown, the user menu) closes: Escape, a pointer press outside
 * the element the returned ref is put on, and navigation to another page. How it opens stays
 * with the popup.
 */
export function useHeaderPopupDismissal(open: boolean, close: () => void) {
  const root = useRef<HTMLDivElement>(null);
  // The latest `close`, so the listeners need not be re-attached on every render.
  const closeRef = useRef(close);
  closeRef.current = close;
  const { pathname } = useLocation();

  useEffect(() => closeRef.current(), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) closeRef.current();
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && closeRef.current();
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return root;
}
