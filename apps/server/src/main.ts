import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import { createApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { hasVectorStore } from './db/vector-store.ts';
import { interruptAbandonedReplies } from './db/repositories/messages.ts';
import { createDeps } from './deps.ts';
import { jobList } from './jobs/job-list.ts';
import { SAVE_DRAIN_MS, stopGracefully } from './lifecycle/graceful-stop.ts';
import { DataDirLockedError, lockDataDir } from './lifecycle/data-dir-lock.ts';
import { answerWhileStarting } from './http/health.ts';
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
  // A warning or error that repeats (a job queue polling a stopped database) is written once a
  // minute with its count.
  const log = createLogger(config.logLevel, undefined, { foldRepeatsMs: 60_000 });

  // 1. The embedded database has one owner: a second process stops here, before it reads or
  // writes anything in DATA_DIR (data-dir-lock.ts).
  if (!config.databaseUrl) {
    let lock;
    try {
      lock = lockDataDir(config.dataDir, {
        onLost: (why) => {
          // Another process writes to this database now: not one more write from this one.
          log.fatal({ why }, "DATA_DIR is no longer this process's; stopping at once");
          process.exit(1);
        },
      });
    } catch (error) {
      if (error instanceof DataDirLockedError) {
        console.error(`Chorus cannot start. ${error.message}`);
        process.exit(1);
      }
      throw error;
    }
    const held = lock;
    process.on('exit', () => held.release());
  }

  // A stop asked for while starting ends the process at once: nothing is being served yet.
  const stopWhileStarting = (signal: NodeJS.Signals) => {
    log.info({ signal }, 'stopped while starting');
    process.exit(0);
  };
  process.once('SIGTERM', stopWhileStarting);
  process.once('SIGINT', stopWhileStarting);

  // 2. The port, before the database is opened: a taken port is told at once. Until the app is
  // ready, requests are answered 503 "starting" (and /livez 200).
  let handle: (request: Request, env: unknown) => Response | Promise<Response> = (request) =>
    answerWhileStarting(request);
  // An http.Server: createAdaptorServer() is typed for http2 too, which Chorus does not use.
  const server = createAdaptorServer({ fetch: (request, env) => handle(request, env) }) as Server;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    console.error(
      `Chorus cannot start. ${
        code === 'EADDRINUSE'
          ? `Port ${config.port} is already in use; set PORT to a free port.`
          : code === 'EACCES'
            ? `Port ${config.port} needs privileges this process does not have; set PORT to another port.`
            : (error as Error).message
      }`,
    );
    process.exit(1);
  }
  server.on('error', (error: NodeJS.ErrnoException) => log.error({ err: error }, 'server error'));

  // 3. The database.
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
  // Other instances' replies are theirs while their lease runs (the sweeper job takes over after);
  // the embedded database belongs to this process alone, so anything left streaming there is ours.
  const interrupted = await interruptAbandonedReplies(
    database.db,
    database.driver === 'pglite' ? { allBut: deps.instance.id } : {},
  );
  if (interrupted > 0)
    log.warn({ interrupted }, 'replies cut off by the last stop are kept as interrupted');
  log.info({ driver: deps.storage.kind }, 'file storage');
  await seedSystemKeys({ db: database.db, box: deps.box, seeds: config.systemKeySeeds, log });
  await deps.jobs.start(jobList(), deps);
  const app = createApp(deps, web);

  // Node closes an idle keep-alive connection after 5 s, and a client that sends its next request
  // on it just then gets ECONNRESET (seen in e2e, a poll after a pause). Clients and proxies keep
  // idle sockets for up to a minute, so the server keeps them longer than that; a graceful stop
  // still closes idle ones at once (graceful-stop.ts).
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;

  await deps.realtime.attach(server, sessionAuthenticator(deps));
  handle = (request, env) => app.fetch(request, env);
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
  process.off('SIGTERM', stopWhileStarting);
  process.off('SIGINT', stopWhileStarting);
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
};

start().catch((error: unknown) => {
  console.error('Chorus failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
