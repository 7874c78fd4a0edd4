import type { ConsentChoice } from './consent';
import type { PageState, PageStyleSheet } from './page-state';
import type { PublicConfig } from './public-config';
import type { RegistryEntry } from './registry';

/**
 * The contract between the bff's server render (bff/src/plugins/app/pages/server-render.ts) and the
 * shell's server build, which exposes it as `shell/render` (shell/src/server/render.tsx): the bff
 * calls `renderPage(request)` and gets the markup of #root. The two are built and deployed apart,
 * so a field is only ever added (a minor version of this package), and a bff reads the result of an
 * older shell build (`RenderResultOfAnyShell`).
 */
export interface RenderRequest {
  /** The path and query the visitor asked for. */
  url: string;
  remotes: RegistryEntry[];
  config: PublicConfig;
  /** The visitor's cookie choice from the request's cookie (null: none yet, the banner shows). */
  consent: ConsentChoice | null;
  /** Loads a remote's server module through the bff's federation runtime. */
  loadRemoteModule: <T>(remote: string, expose: string) => Promise<T>;
  /** Aborted at the bff's time limit: what is not rendered by then is rendered by the browser. */
  signal: AbortSignal;
  /** A signed-in visitor's account page: rendered with their session and the answers its parts show. */
  signedIn?: SignedInRender;
}

/** A signed-in visitor's account page: their session, their answers, the layout the bff guessed. */
export interface SignedInRender {
  session: PageState['session'];
  /**
   * The answer to GET `path` of the visitor's account API, as the API would give it to them;
   * undefined when it was refused, failed or came too late (or is not the account API's).
   */
  fetchAnswer(path: string): Promise<unknown>;
  /** Draw the phone layout (the bff's guess from the request). */
  phone: boolean;
  /** Draw the account sidebar collapsed (the visitor's choice). */
  sidebarCollapsed: boolean;
}

export interface RenderResult {
  /** The markup of #root. */
  html: string;
  /** The styles the markup uses, for the head: global sheets first, then the elements' classes in the order they were rendered. */
  styles: PageStyleSheet[];
  /** Parts that failed on the server (a remote that would not load or threw): the browser renders them. */
  errors: string[];
  /** A signed-in page's answers, by path, as it showed them: the browser hydrates with the same. */
  answers: Record<string, unknown>;
}

/**
 * A result as the bff may get it: a shell build from before `styles` gives none (it writes the
 * styles into the markup), and one from before `answers` none either.
 */
export type RenderResultOfAnyShell = Omit<RenderResult, 'styles' | 'answers'> & Partial<Pick<RenderResult, 'styles' | 'answers'>>;

/** What the shell's server build exposes as `shell/render`. */
export interface ShellRenderModule {
  renderPage(request: RenderRequest): Promise<RenderResultOfAnyShell>;
}
