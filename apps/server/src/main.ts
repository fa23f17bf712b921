import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { hasVectorStore } from './db/vector-store.ts';
import { endOtherLeases } from './db/repositories/instances.ts';
import { createDeps } from './deps.ts';
import { jobList } from './jobs/job-list.ts';
import { recoverStoppedInstances } from './jobs/recover-stopped-instances.ts';
import { SAVE_DRAIN_MS, stopGracefully } from './lifecycle/graceful-stop.ts';
import { loadWebAssets } from './http/static.ts';
import { createLogger } from './logger.ts';
import { sessionAuthenticator } from './services/realtime/authenticate.ts';
import { seedSystemKeys } from './services/keys/seed-system-keys.ts';

/** Longer than the minute clients and proxies keep an idle connection open. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

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
  if (await hasVectorStore(database.db)) {
    log.info('knowledge search: hybrid (vectors and full text)');
  } else {
    log.warn(
      'knowledge search: full text alone; this PostgreSQL has no vector extension (install pgvector for hybrid search)',
    );
  }

  const here = path.dirname(fileURLToPath(import.meta.url));
  const webDir = config.webDistDir
    ? path.resolve(config.webDistDir)
    : path.resolve(here, '../../web/dist');
  const web = loadWebAssets(webDir);
  if (!web)
    log.warn({ webDir }, 'no built web app found; serving the API only (run npm run build)');

  const deps = createDeps(config, database, log);
  await deps.instance.start();
  // Other instances' runs are theirs while their lease runs (the sweep ends or resumes them
  // after; ADR 018). The embedded database belongs to this process alone, so any other instance
  // recorded there has died: its lease ends now, and its runs are recovered below.
  if (database.driver === 'pglite') await endOtherLeases(database.db, deps.instance.id);
  log.info({ driver: deps.storage.kind }, 'file storage');
  await seedSystemKeys({ db: database.db, box: deps.box, seeds: config.systemKeySeeds, log });
  await deps.jobs.start(jobList(), deps);
  // At once rather than at the first sweep; resumed runs need the job queue, so it runs after it.
  await recoverStoppedInstances(deps);
  const app = createApp(deps, web);
  // An http.Server: serve() is typed for http2 too, which Chorus does not use.
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    log.info({ port: info.port, url: config.appUrl }, 'Chorus is listening');
  }) as Server;

  // Node closes an idle keep-alive connection after 5 s, and a client that sends its next request
  // on it just then gets ECONNRESET (seen in e2e, a poll after a pause). Clients and proxies keep
  // idle sockets for up to a minute, so the server keeps them longer than that; a graceful stop
  // still closes idle ones at once (graceful-stop.ts).
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;

  await deps.realtime.attach(server, sessionAuthenticator(deps));

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
    log.info({ signal, streams: deps.streams.size }, 'shutting down');
    // A stop that hangs anyway is forced, and says so with its exit code.
    const force = setTimeout(
      () => process.exit(1),
      config.shutdownGraceMs + SAVE_DRAIN_MS + 10_000,
    );
    force.unref();
    stopGracefully({ server, deps, database, graceMs: config.shutdownGraceMs })
      .then(() => {
        log.info('stopped');
        process.exit(0);
      })
      .catch((err: unknown) => {
        log.error({ err }, 'stopping failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
};

start().catch((error: unknown) => {
  console.error('Chorus failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
