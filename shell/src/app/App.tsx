import { useEffect } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { CacheProvider } from '@emotion/react';
import createCache from '@emotion/cache';
import { ThemeProvider } from '@mui/material/styles';
import type { PublicConfig } from '@bimi/contracts/public-config';
import { EMOTION_CACHE_KEY, theme } from '@bimi/ui/theme';
import { persistCart } from '@bimi/cart/store';
import { setPriceSettings } from '@bimi/cart/price-settings';
import { startSessionSync } from '@bimi/session/client';
import type { RegistryState } from '../federation/registry';
import { startPreloading } from '../federation/preload';
import { SiteFrame } from './SiteFrame';
import { ShellContext } from './shell-context';
import { ShellErrorBoundary } from './ShellErrorBoundary';

// One Emotion cache for the whole site: remotes share @emotion/react, so their styles land here.
const emotionCache = createCache({ key: EMOTION_CACHE_KEY });

export function App({ registry, config }: { registry: RegistryState; config: PublicConfig }) {
  useEffect(() => persistCart(), []);
  useEffect(() => setPriceSettings(config.priceSettings), [config.priceSettings]);
  useEffect(() => startSessionSync(), []);
  useEffect(() => startPreloading(), []);
  return (
    <ShellErrorBoundary>
      <CacheProvider value={emotionCache}>
        <ThemeProvider theme={theme}>
          <ShellContext.Provider value={{ registry, config }}>
            <BrowserRouter>
              <SiteFrame />
            </BrowserRouter>
          </ShellContext.Provider>
        </ThemeProvider>
      </CacheProvider>
    </ShellErrorBoundary>
  );
}
