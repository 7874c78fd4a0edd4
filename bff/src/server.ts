import { describeDefaults, loadConfig } from './config';
import { startRefusal } from './lib/server-options';

async function start(): Promise<void> {
  const config = loadConfig();
  // Production behind no trusted TLS proxy would start fine and then never keep anyone signed in.
  const refusal = startRefusal(config);
  if (refusal) throw new Error(refusal);
  // Loaded only once the settings pass: a refusal is quick and names the setting, nothing else.
  const { buildApp } = await import('./app.js');
  const app = await buildApp(config);
  for (const note of describeDefaults(config)) app.log.info(note);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info(`${signal} received, closing`);
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }

  // Fastify logs the address it listens on ("Server listening at http://…").
  await app.listen({ host: config.host, port: config.port });
}

start().catch((error: unknown) => {
  // A start-up failure is one readable line, not a stack trace, so the bad setting is easy to spot.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`bff failed to start: ${message}\n`);
  process.exit(1);
});
