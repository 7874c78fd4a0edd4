import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { initFederation } from './federation/registry';
import { readPublicConfig } from './app/public-config';

async function start() {
  const [registryState, config] = await Promise.all([initFederation(), readPublicConfig()]);
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  const app = <App registry={registryState} config={config} />;
  // The bff rendered public pages on the server (issue 14): the browser takes the markup over
  // instead of drawing it again. A mismatch is reported; React then renders that part anew.
  if (container.dataset.serverRendered === 'true') {
    hydrateRoot(container, app, {
      onRecoverableError(error) {
        console.error('[shell] hydration:', error instanceof Error ? error.message : error);
      },
    });
  } else {
    createRoot(container).render(app);
  }
}

void start();
