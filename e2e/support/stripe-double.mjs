// E2E_PAYMENTS=stripe-double (imported by serve.mjs): the bff takes payments with the real Stripe
// SDK against the local Stripe API double (bff/test/fixtures/stripe) instead of the built-in test
// payments. The double's hosted page (/pay/<session>) takes the same test cards (4242 4242 4242 4242
// pays; 4000 0000 0000 0002 and 4000 0000 0000 9995 are refused on the page, as Stripe Checkout
// does) and POSTs the signed webhooks to the bff. Its settings are added to process.env, which
// serve.mjs hands to the bff. The production-settings server (serve.mjs --production) keeps its own
// payments: production refuses an http Stripe API.
import { spawn } from 'node:child_process';
import path from 'node:path';

const WORKSPACE = path.resolve(import.meta.dirname, '..', '..');
const port = process.env.E2E_PORT ?? '3100';

async function useStripeDouble() {
  const double = spawn(process.execPath, ['--import', 'tsx', path.join('test', 'fixtures', 'stripe', 'serve.ts')], {
    cwd: path.join(WORKSPACE, 'bff'),
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, STRIPE_DOUBLE_WEBHOOK_URL: `http://127.0.0.1:${port}/api/payments/webhook` },
  });
  const settings = await new Promise((resolve, reject) => {
    let output = '';
    double.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve(JSON.parse(output.slice(0, output.indexOf('\n'))));
    });
    double.once('exit', (code) => reject(new Error(`e2e: the Stripe API double stopped (${code})`)));
  });
  Object.assign(process.env, settings.env);
  // The double stops when its stdin closes, that is when this process exits.
  process.once('exit', () => double.stdin.end());
  console.log(`e2e: payments through the Stripe API double at ${settings.url}`);
}

if (!process.argv.includes('--production')) await useStripeDouble();
