import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { interruptAbandonedReplies } from './db/repositories/messages.ts';
import { createDeps } from './deps.ts';
import { registerEmailRetries } from './jobs/email-retry.ts';
import { startJobQueue } from './jobs/queue.ts';
import { loadWebAssets } from './http/static.ts';
import { createLogger } from './logger.ts';
import { sessionAuthenticator } from './services/realtime/authenticate.ts';
import { seedSystemKeys } from './services/keys/seed-system-keys.ts';

const start = async () => {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Chorus cannot start. ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  const database = openDatabase(config);
  log.info({ driver: database.driver, dataDir: config.dataDir }, 'opening database');
  await database.migrate();
  const interrupted = await interruptAbandonedReplies(database.db);
  if (interrupted > 0)
    log.warn({ interrupted }, 'replies cut off by the last stop are kept as interrupted');

  const here = path.dirname(fileURLToPath(import.meta.url));
  const webDir = config.webDistDir
    ? path.resolve(config.webDistDir)
    : path.resolve(here, '../../web/dist');
  const web = loadWebAssets(webDir);
  if (!web)
    log.warn({ webDir }, 'no built web app found; serving the API only (run npm run build)');

  const deps = createDeps(config, database, log);
  await seedSystemKeys({ db: database.db, box: deps.box, seeds: config.systemKeySeeds, log });
  const jobs = await startJobQueue({ database, log });
  await registerEmailRetries(jobs, deps.mailer);
  const app = createApp(deps, web);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    log.info({ port: info.port, url: config.appUrl }, 'Chorus is listening');
  });

  await deps.realtime.attach(server as Server, sessionAuthenticator(deps));

  server.on('error', (error: NodeJS.ErrnoException) => {
    log.fatal(
      { code: error.code, port: config.port },
      error.code === 'EADDRINUSE'
        ? `Port ${config.port} is already in use; set PORT to a free port`
        : error.message,
    );
    process.exit(1);
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // Open sockets would hold close() open; they are told the server is going away.
    void deps.realtime.close();
    server.close(async () => {
      await deps.mailer.settled();
      deps.mailer.useRetries(null);
      await jobs.stop();
      deps.mailer.close();
      await database.close();
      log.info('stopped');
      process.exit(0);
    });
    // Idle keep-alive sockets would hold close() open.
    (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
};

start().catch((error: unknown) => {
  console.error('Chorus failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
