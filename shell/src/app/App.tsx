import { useEffect, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { CacheProvider, type EmotionCache } from '@emotion/react';
import type { ConsentChoice } from '@bimi/contracts/consent';
import type { PublicConfig } from '@bimi/contracts/public-config';
import { persistCart } from '@bimi/cart/store';
import { setPriceSettings } from '@bimi/cart/price-settings';
import { startSessionSync } from '@bimi/session/client';
import { ServerPageContext, type ServerPage } from '@bimi/session/page-state';
import type { RegistryState } from '../federation/registry';
import { startPreloading } from '../federation/preload';
import { SiteFrame } from './SiteFrame';
import { ShellContext } from './shell-context';
import { ShellErrorBoundary } from './ShellErrorBoundary';
import { createSiteEmotionCache } from './emotion-cache';

// One Emotion cache for the whole site: remotes share @emotion/react, so their styles land here.
// Made when the page starts, it takes over the sheets a server-rendered page carries in its head.
const siteEmotionCache = createSiteEmotionCache();

export interface AppProps {
  registry: RegistryState;
  config: PublicConfig;
  /** SiteRouter in the browser; the server renders with a StaticRouter at the requested URL. */
  Router?: ComponentType<{ children: ReactNode }>;
  /** The server renders each page with a cache of its own. */
  emotionCache?: EmotionCache;
  /** The server passes the request's cookie choice: the cookie banner is in the first HTML when the browser will show it. */
  serverConsent?: ConsentChoice | null;
  /** The server renders a signed-in visitor's account page with their session and its answers. */
  serverPage?: ServerPage | null;
}

/**
 * The browser's router. Navigations are transitions (React Router 7's default): a page whose code
 * is still loading (the account remote's pages load lazily) leaves the current page on screen
 * instead of blanking the area to the loading bar.
 */
function SiteRouter({ children }: { children: ReactNode }) {
  return <BrowserRouter future={{ v7_startTransition: true }}>{children}</BrowserRouter>;
}

/** The whole site, the same tree in the browser and on the server (src/server/render.tsx), so hydration matches. */
export function App({ registry, config, Router = SiteRouter, emotionCache = siteEmotionCache, serverConsent, serverPage = null }: AppProps) {
  useEffect(() => persistCart(), []);
  useEffect(() => setPriceSettings(config.priceSettings), [config.priceSettings]);
  useEffect(() => startSessionSync(), []);
  useEffect(() => startPreloading(), []);
  return (
    <ShellErrorBoundary>
      <CacheProvider value={emotionCache}>
        <ShellContext.Provider value={{ registry, config, serverConsent }}>
          <ServerPageContext.Provider value={serverPage}>
            <Router>
              <SiteFrame />
            </Router>
          </ServerPageContext.Provider>
        </ShellContext.Provider>
      </CacheProvider>
    </ShellErrorBoundary>
  );
}
