import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom/server';
import createEmotionServer from '@emotion/server/create-instance';
import type { RenderRequest, RenderResult, SignedInRender } from '@bimi/contracts/server-render';
import type { ServerPage } from '@bimi/session/page-state';
import { App } from '../app/App';
import { RemoteLoaderContext } from '../federation/remote-loader';
import { createSiteEmotionCache } from '../app/emotion-cache';

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
  // Every style this render made, the markup's and those of the components a styled component
  // wraps (MUI's Button around its ButtonBase): no element carries the latter's class, so Emotion's
  // extraction leaves them out, and the browser then compiled and inserted each of them again while
  // it hydrated (about twenty rules on /bimi-checker, in the commit's task). The page's cache is
  // its own, so what it holds is this page's.
  const allClasses = Object.keys(emotionCache.inserted)
    .map((id) => `${emotionCache.key}-${id}`)
    .join(' ');
  const { styles } = createEmotionServer(emotionCache).extractCriticalToChunks(`${html} ${allClasses}`);
  return { html, styles: styles.filter((chunk) => chunk.css !== ''), errors, answers };
}
