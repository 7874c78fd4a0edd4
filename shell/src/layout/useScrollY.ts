import { useEffect, useRef, useState } from 'react';

/**
 * Calls `onScrollY` with the window's vertical scroll, read at most once a frame and only in an
 * animation frame: reading `scrollY` makes the browser lay the page out first, and in an effect
 * of hydration's commit, whose changes the browser has not laid out yet, that layout ran inside
 * the commit's task (about 20 ms of it on the account frame in a CPU profile). In a frame the
 * browser lays the page out anyway. The first call comes one frame after mount.
 */
export function useScrollListener(onScrollY: (y: number) => void): void {
  const listener = useRef(onScrollY);
  listener.current = onScrollY;
  useEffect(() => {
    const read = () => listener.current(window.scrollY);
    let frame = requestAnimationFrame(read);
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(read);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);
}

/** The window's vertical scroll: 0 at first, as on the server (a hydrated page renders as the server did). */
export function useScrollY(): number {
  const [y, setY] = useState(0);
  useScrollListener(setY);
  return y;
}
