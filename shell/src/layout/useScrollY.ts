import { useEffect, useState } from 'react';

/** The window's vertical scroll, updated at most once a frame. */
export function useScrollY(): number {
  // 0 at first, as on the server (a hydrated page must render as the server did), then the real value.
  const [y, setY] = useState(0);
  useEffect(() => {
    setY(window.scrollY);
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setY(window.scrollY));
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);
  return y;
}
