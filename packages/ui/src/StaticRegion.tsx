import { useState, useSyncExternalStore, type MouseEvent, type ReactNode } from 'react';
import { useNavigate, type NavigateFunction } from 'react-router-dom';

const noSubscription = () => () => {};

/**
 * The markup the server sent, kept as it is: React sets an element's innerHTML only when this
 * object changes, and it is the same object on every render, so hydration and the renders after it
 * leave the element's content alone.
 */
const SERVER_MARKUP = { __html: '' };

/** The data attributes a kept region carries (`data-remote`, `data-version`…). */
export type DataAttributes = { [name: `data-${string}`]: string | undefined };

/**
 * True while React hydrates the component (and on the server), false when the browser renders it
 * anew: the server snapshot of an external store is read exactly while hydrating.
 */
function useHydrating(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}

/**
 * Whether this element, mounted now, takes the server's markup over: true for the whole life of a
 * region the browser hydrated, false for one it rendered itself (a later page, a page the server
 * could not render). Read once, at mount.
 */
export function useKeepsServerMarkup(): boolean {
  const hydrating = useHydrating();
  const [keeps] = useState(() => hydrating && typeof document !== 'undefined');
  return keeps;
}

/** A plain left click on a link of this site to another page: the router takes it, in the same document. */
function followInRouter(event: MouseEvent<HTMLElement>, navigate: NavigateFunction): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || !event.currentTarget.contains(link)) return;
  if ((link.target && link.target !== '_self') || link.hasAttribute('download')) return;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin) return;
  // A jump within the page is the browser's.
  if (url.pathname === window.location.pathname && url.search === window.location.search && url.hash) return;
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
}

/**
 * The server's markup of a region the browser does not hydrate: no component inside it runs, and
 * its links go through the router like a RouterLink's. Only for markup that answers nothing but
 * links (text, pictures, links): a button in it would do nothing.
 */
export function ServerMarkup(attributes: DataAttributes) {
  const navigate = useNavigate();
  return <div {...attributes} style={{ display: 'contents' }} dangerouslySetInnerHTML={SERVER_MARKUP} suppressHydrationWarning onClick={(event) => followInRouter(event, navigate)} />;
}

/**
 * Static content (text, pictures, links) that the server renders and the browser keeps as it
 * came, without running its components (an island architecture's sea): hydrating it costs the
 * phone time before the page answers a tap and changes nothing on screen. Rendered in the
 * browser (a later page), it renders its children. Interactive parts stay outside it.
 */
export function StaticRegion({ children, ...attributes }: { children: ReactNode } & DataAttributes) {
  const keeps = useKeepsServerMarkup();
  if (keeps) return <ServerMarkup {...attributes} />;
  return (
    <div {...attributes} style={{ display: 'contents' }}>
      {children}
    </div>
  );
}
