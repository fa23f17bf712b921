import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/client.ts';
import { hasVectorStore } from './db/vector-store.ts';
import { endOtherLeases } from './db/repositories/instances.ts';
import { createDeps } from './deps.ts';
import { jobList } from './jobs/job-list.ts';
import { recoverStoppedInstances } from './jobs/recover-stopped-instances.ts';
import { SAVE_DRAIN_MS, stopGracefully } from './lifecycle/graceful-stop.ts';
import { loadWebAssets } from './http/static.ts';
import type { Logger } from './logger.ts';
import { sessionAuthenticator } from './services/realtime/authenticate.ts';
import { seedSystemKeys } from './services/keys/seed-system-keys.ts';

// The server behind main.ts: imported once this process owns its data directory and its port,
// so a second process is refused before it loads any of this (main.ts).

/** Longer than the minute clients and proxies keep an idle connection open. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Opens and migrates the database, starts the instance, recovery, jobs and the app on `server`
 * (already listening), then hands requests to the app (`serveWith`). Resolves with the graceful
 * stop for SIGTERM and SIGINT.
 */
export const startChorus = async ({
  config,
  log,
  server,
  serveWith,
}: {
  config: Config;
  log: Logger;
  server: Server;
  serveWith: (fetch: (request: Request, env: unknown) => Response | Promise<Response>) => void;
}): Promise<(signal: string) => void> => {
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
  // after; ADR 018). The embedded database belongs to this process alone (main.ts locks DATA_DIR),
  // so any other instance recorded there has died: its lease ends now, and its runs are
  // recovered below.
  if (database.driver === 'pglite') await endOtherLeases(database.db, deps.instance.id);
  log.info({ driver: deps.storage.kind }, 'file storage');
  await seedSystemKeys({ db: database.db, box: deps.box, seeds: config.systemKeySeeds, log });
  await deps.jobs.start(jobList(), deps);
  // At once rather than at the first sweep; resumed runs need the job queue, so it runs after it.
  await recoverStoppedInstances(deps);
  const app = createApp(deps, web);

  // Node closes an idle keep-alive connection after 5 s, and a client that sends its next request
  // on it just then gets ECONNRESET (seen in e2e, a poll after a pause). Clients and proxies keep
  // idle sockets for up to a minute, so the server keeps them longer than that; a graceful stop
  // still closes idle ones at once (graceful-stop.ts).
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;

  await deps.realtime.attach(server, sessionAuthenticator(deps));
  serveWith((request, env) => app.fetch(request, env));
  log.info({ port: config.port, url: config.appUrl }, 'Chorus is listening');

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
  return shutdown;
};
