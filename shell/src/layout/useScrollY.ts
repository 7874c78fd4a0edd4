import { useEffect, useRef, useState } from 'react';

/**
 * Calls `onScrollY` with the window's vertical scroll, read at most once a frame and only in an
 * animation frame: reading `scrollY` makes the browser lay the page out first, and in an effect
 * of hydration's commit, whose changes the browser has not laid out yet, that layout ran inside
 * the commit's task (about 20 ms of it on the account frame in a CPU profile). In a frame the
 * browser lays the page out anyway. With `readAtMount`, the first call comes one frame after
 * mount; without, at the first scroll (a layout the browser did for the scroll).
 */
export function useScrollListener(onScrollY: (y: number) => void, { readAtMount }: { readAtMount: boolean }): void {
  const listener = useRef(onScrollY);
  listener.current = onScrollY;
  useEffect(() => {
    const read = () => listener.current(window.scrollY);
    let frame = readAtMount ? requestAnimationFrame(read) : 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(read);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, [readAtMount]);
}

/**
 * The window's vertical scroll: 0 at first, as on the server (a hydrated page renders as the server
 * did), then read once the page is live, as the visitor may have scrolled the server's page.
 */
export function useScrollY(): number {
  const [y, setY] = useState(0);
  useScrollListener(setY, { readAtMount: true });
  return y;
}
