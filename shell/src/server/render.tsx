import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom/server';
import createEmotionServer from '@emotion/server/create-instance';
import type { ConsentChoice } from '@bimi/contracts/consent';
import type { PublicConfig } from '@bimi/contracts/public-config';
import type { RegistryEntry } from '@bimi/contracts/registry';
import type { Session } from '@bimi/session/client';
import type { ServerPage } from '@bimi/session/page-state';
import type { PageStyleSheet } from '@bimi/contracts/page-state';
import { App } from '../app/App';
import { RemoteLoaderContext, type RemoteModuleLoader } from '../federation/remote-loader';
import { createSiteEmotionCache } from '../app/emotion-cache';

export interface RenderRequest {
  /** The path and query the visitor asked for. */
  url: string;
  remotes: RegistryEntry[];
  config: PublicConfig;
  /** The visitor's cookie choice from the request's cookie (null: none yet, the banner shows). */
  consent: ConsentChoice | null;
  /** Loads a remote's server module through the bff's federation runtime. */
  loadRemoteModule: RemoteModuleLoader;
  /** Aborted at the bff's time limit: what is not rendered by then is rendered by the browser. */
  signal: AbortSignal;
  /** A signed-in visitor's account page: rendered with their session and the answers its parts show. */
  signedIn?: SignedInRender;
}

export interface SignedInRender {
  session: Session;
  /** The bff's answer to GET `path` for this visitor (their cookie); undefined when it was refused or failed (or is not the account API's). */
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

/** The page's answers for one render: each path asked for once, whatever asks for it, and kept for the browser. */
function answersFor({ session, fetchAnswer, phone, sidebarCollapsed }: SignedInRender, answers: Record<string, unknown>): ServerPage {
  const asked = new Map<string, Promise<unknown>>();
  return {
    session,
    phone,
    sidebarCollapsed,
    answer(path) {
      let answer = asked.get(path);
      if (!answer) {
        answer = fetchAnswer(path).then(
          (value) => {
            if (value !== undefined) answers[path] = value;
            return value;
          },
          () => undefined,
        );
        asked.set(path, answer);
      }
      return answer;
    },
  };
}

/**
 * `shell/render` of the shell's server build: the page as the browser's first render will draw it
 * (the same App, with a StaticRouter), every Suspense boundary waited for. Emotion's styles come
 * apart from the markup, for the head (the cache in compat mode keeps them instead of writing a
 * `<style>` before each element): the browser parses and styles one sheet instead of about a
 * hundred in the body, which its cache then had to move into the head before hydrating.
 */
export async function renderPage({ url, remotes, config, consent, loadRemoteModule, signal, signedIn }: RenderRequest): Promise<RenderResult> {
  const errors: string[] = [];
  const answers: Record<string, unknown> = {};
  const Router = ({ children }: { children: ReactNode }) => <StaticRouter location={url}>{children}</StaticRouter>;
  const emotionCache = createSiteEmotionCache();
  emotionCache.compat = true;
  const { prelude } = await prerenderToNodeStream(
    <RemoteLoaderContext.Provider value={loadRemoteModule}>
      <App
        registry={{ status: 'ready', remotes }}
        config={config}
        Router={Router}
        emotionCache={emotionCache}
        serverConsent={consent ?? null}
        serverPage={signedIn ? answersFor(signedIn, answers) : null}
      />
    </RemoteLoaderContext.Provider>,
    {
      signal,
      // Every finished boundary inline in the markup: an outlined one is revealed by an inline
      // script, which the site's Content-Security-Policy (script-src 'self') refuses.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError(error) {
        errors.push(error instanceof Error ? error.message : String(error));
      },
    },
  );
  let html = '';
  for await (const chunk of prelude) html += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  const { styles } = createEmotionServer(emotionCache).extractCriticalToChunks(html);
  return { html, styles: styles.filter((chunk) => chunk.css !== ''), errors, answers };
}
