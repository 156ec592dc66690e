import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config/env.ts';

// Starts the process: builds the app from the environment, listens, and shuts down cleanly
// (PGlite must close its data folder) on SIGINT / SIGTERM.

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp({ config });

  let isClosing = false;
  const shutDown = (signal: NodeJS.Signals) => {
    if (isClosing) return;
    isClosing = true;
    app.log.info({ signal }, 'Shutting down');
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'Shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutDown);
  process.on('SIGTERM', shutDown);

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Fabric is running at http://localhost:${port}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Fabric could not start:', error);
  }
  process.exit(1);
});
