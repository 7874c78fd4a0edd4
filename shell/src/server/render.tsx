import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom/server';
import type { ConsentChoice } from '@bimi/contracts/consent';
import type { PublicConfig } from '@bimi/contracts/public-config';
import type { RegistryEntry } from '@bimi/contracts/registry';
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
}

export interface RenderResult {
  /** The markup of #root. */
  html: string;
  /** Parts that failed on the server (a remote that would not load or threw): the browser renders them. */
  errors: string[];
}

/**
 * `shell/render` of the shell's server build: the page as the browser's first render will draw it
 * (the same App, with a StaticRouter), every Suspense boundary waited for, Emotion's styles inline
 * beside the elements they style (the browser's cache moves them into <head> before hydrating).
 */
export async function renderPage({ url, remotes, config, consent, loadRemoteModule, signal }: RenderRequest): Promise<RenderResult> {
  const errors: string[] = [];
  const Router = ({ children }: { children: ReactNode }) => <StaticRouter location={url}>{children}</StaticRouter>;
  const { prelude } = await prerenderToNodeStream(
    <RemoteLoaderContext.Provider value={loadRemoteModule}>
      <App registry={{ status: 'ready', remotes }} config={config} Router={Router} emotionCache={createSiteEmotionCache()} serverConsent={consent ?? null} />
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
  return { html, errors };
}
