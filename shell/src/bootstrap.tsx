import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { initFederation } from './federation/registry';
import { readPublicConfig } from './app/public-config';

async function start() {
  const [registryState, config] = await Promise.all([initFederation(), readPublicConfig()]);
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  createRoot(container).render(<App registry={registryState} config={config} />);
}

void start();
