import { createContext, useContext } from 'react';
import { PAGE_STATE_ID, PageState } from '@bimi/contracts/page-state';
import type { Session } from './client';

/**
 * A signed-in visitor's account page, rendered by the bff with their session and the answers its
 * parts show (issue 14). On the server the render gets them through ServerPageContext; in the
 * browser, hydration gets the same from the page (`#page-state`, readPageState), so both draw the
 * same markup. Here, in the shared singleton, so the shell that provides them and the remotes that
 * read them (useSession, the account's useApi) see one context and one copy.
 */
export interface ServerPage {
  session: Session;
  /** The answer to GET `path` for this render (the same promise for the same path); undefined when it failed. */
  answer(path: string): Promise<unknown>;
  /** Whether the page is drawn for a phone (SCREEN_COOKIE, else the bff's guess from the request). */
  phone: boolean;
  /** Whether the account sidebar is drawn collapsed (the visitor's choice, SIDEBAR_COOKIE). */
  sidebarCollapsed: boolean;
}

/** Only on the server, around a signed-in page's render. */
export const ServerPageContext = createContext<ServerPage | null>(null);

let pageState: PageState | null | undefined;
/** Answers the page was rendered with and has not shown yet. */
let unshown = new Map<string, unknown>();
/** The address the page was rendered for: its answers are for that page view only. */
let renderedFor = '';

/** The state this page was rendered with on the server, read from the page once; null when it carries none. */
export function readPageState(): PageState | null {
  if (pageState !== undefined) return pageState;
  pageState = null;
  const text = typeof document === 'undefined' ? null : document.getElementById(PAGE_STATE_ID)?.textContent;
  if (text) {
    try {
      const parsed = PageState.safeParse(JSON.parse(text));
      if (parsed.success) pageState = parsed.data;
      else console.error('[session] the page state does not match its contract: the page renders in the browser');
    } catch {
      console.error('[session] the page state is not JSON: the page renders in the browser');
    }
  }
  unshown = new Map(Object.entries(pageState?.answers ?? {}));
  renderedFor = typeof location === 'undefined' ? '' : location.pathname + location.search;
  return pageState;
}

/**
 * The answer to GET `path` this page was rendered with, until the page has shown it (answerShown):
 * hydration draws what the server drew; a later visit of the page asks afresh.
 */
export function renderedAnswer(path: string): unknown {
  readPageState();
  // Once the visitor has gone to another address, the rendered answers are old: pages ask afresh.
  if (unshown.size > 0 && location.pathname + location.search !== renderedFor) unshown.clear();
  return unshown.get(path);
}

/** What a server-rendered signed-in page was drawn with, on the server and while the browser hydrates it; false for any other page. */
function usePageHint(hint: 'phone' | 'sidebarCollapsed'): boolean {
  const serverPage = useContext(ServerPageContext);
  return serverPage ? serverPage[hint] : (readPageState()?.[hint] ?? false);
}

/**
 * Whether a server-rendered signed-in page was drawn for a phone: the first value of a screen-size
 * query (MUI's useMediaQuery `defaultMatches`), so hydration draws what the server drew before the
 * browser's own screen decides.
 */
export const usePhoneHint = () => usePageHint('phone');

/** Whether a server-rendered signed-in page drew the account sidebar collapsed: hydration draws the same. */
export const useSidebarCollapsedHint = () => usePageHint('sidebarCollapsed');

/** The page has shown the answer it was rendered with (after hydration). */
export function answerShown(path: string): void {
  unshown.delete(path);
}
