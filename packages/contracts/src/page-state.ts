import * as z from 'zod/mini';
import { ACCOUNT_BASE_PATH } from './api-paths';
import { SignedInSession } from './session';

/** The id of the element a signed-in page carries its state in (`<script type="application/json">`). */
export const PAGE_STATE_ID = 'page-state';

/**
 * The account sidebar's collapsed or open choice, kept in this cookie as well as in the browser's
 * storage, so the server draws the sidebar as the visitor left it (`collapsed` or `open`).
 */
export const SIDEBAR_COOKIE = 'bimi_sidebar';

/**
 * Whether the visitor's screen was phone-sized (`phone`) or not (`wide`) when an account page last
 * measured it: the server draws that layout next time, rather than guess from the request (a
 * desktop browser in a narrow window names itself a desktop).
 */
export const SCREEN_COOKIE = 'bimi_screen';

/**
 * What the bff rendered a signed-in visitor's account page with (issue 14), carried in the page so
 * the browser hydrates with the same: the session, the GET answers the page showed (by path),
 * whether the server drew the phone layout (SCREEN_COOKIE, else a guess from the request; the
 * browser corrects it) and the sidebar collapsed (SIDEBAR_COOKIE).
 * Such a page is the visitor's own: never cached, by the bff or anybody else.
 */
export const PageState = z.object({
  session: SignedInSession,
  answers: z.record(z.string(), z.unknown()),
  phone: z.boolean(),
  sidebarCollapsed: z._default(z.boolean(), false),
});
export type PageState = z.infer<typeof PageState>;

const NOWHERE = 'http://bff.invalid';

/**
 * The path a signed-in page may be rendered with the GET answer of, as the bff's router will read
 * it; undefined unless it is the visitor's account API. Read as a URL parser reads it (`%2e%2e` is a
 * `..` there, and `/api/account/../auth` is `/api/auth`), with no encoded dot, slash or backslash.
 */
export function renderableAnswerPath(path: string): string | undefined {
  if (!path.startsWith('/') || /%2e|%2f|%5c|\\/i.test(path)) return undefined;
  let url: URL;
  try {
    url = new URL(path, NOWHERE);
  } catch {
    return undefined;
  }
  if (url.origin !== NOWHERE || url.hash !== '' || !url.pathname.startsWith(`${ACCOUNT_BASE_PATH}/`)) return undefined;
  return url.pathname + url.search;
}

/**
 * One of Emotion's sheets of a server-rendered page, for its head: the shell's server render
 * (`styles` of shell/render) gives them, the bff writes each as `<style data-emotion="{key} {ids}">`.
 */
export interface PageStyleSheet {
  /** The cache's key (the page's class names begin with it), or `{key}-global` for a global sheet. */
  key: string;
  /** The styles' names: the browser's cache takes them as already inserted. */
  ids: string[];
  css: string;
}
