import { startTransition } from 'react';
import { initFederation } from './federation/registry';
import { readPublicConfig } from './app/public-config';

/** A new task: the browser paints and answers input between the start-up's parts. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start() {
  const [registryState, config] = await Promise.all([initFederation(), readPublicConfig()]);
  // Each library's modules run when first imported: apart, so no part of the start-up is one long
  // task that blocks the page (issue 14, total blocking time). Eager: no extra request.
  await nextTask();
  const { createRoot, hydrateRoot } = await import(/* webpackMode: "eager" */ 'react-dom/client');
  await nextTask();
  await import(/* webpackMode: "eager" */ '@mui/material/styles');
  await nextTask();
  await import(/* webpackMode: "eager" */ 'react-router-dom');
  await nextTask();
  await import(/* webpackMode: "eager" */ '@bimi/ui/theme');
  await nextTask();
  await Promise.all([import(/* webpackMode: "eager" */ '@mui/material/Box'), import(/* webpackMode: "eager" */ '@mui/material/Typography')]);
  await nextTask();
  await Promise.all([import(/* webpackMode: "eager" */ '@mui/material/Button'), import(/* webpackMode: "eager" */ '@mui/material/IconButton')]);
  await nextTask();
  await import(/* webpackMode: "eager" */ '@bimi/cart/useCart');
  await nextTask();
  await import(/* webpackMode: "eager" */ '@bimi/session/useSession');
  await nextTask();
  await import(/* webpackMode: "eager" */ './layout/Header');
  await nextTask();
  await import(/* webpackMode: "eager" */ './layout/PublicLayout');
  await nextTask();
  const { App } = await import(/* webpackMode: "eager" */ './app/App');
  await nextTask();
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  const app = <App registry={registryState} config={config} />;
  // The bff rendered public pages on the server (issue 14): the browser takes the markup over
  // instead of drawing it again. A mismatch is reported; React then renders that part anew.
  if (container.dataset.serverRendered === 'true') {
    // As a transition, hydration yields to the browser every few milliseconds instead of taking
    // the page over in one task; a click on a part not yet hydrated hydrates that part first.
    startTransition(() => {
      hydrateRoot(container, app, {
        onRecoverableError(error) {
          console.error('[shell] hydration:', error instanceof Error ? error.message : error);
        },
      });
    });
  } else {
    createRoot(container).render(app);
  }
}

void start();
