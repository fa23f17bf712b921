import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { ConfigError, loadConfig } from './config.ts';
import { answerWhileStarting } from './http/starting.ts';
import { DataDirLockedError, lockDataDir } from './lifecycle/data-dir-lock.ts';
import { createLogger } from './logger.ts';

// The entry point. It imports little, so that what must come first comes at once: the data
// directory's lock and the port. The server itself (serve.ts, with the database and every
// dependency) is imported only after both are this process's.

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
  const server = createAdaptorServer({
    fetch: (request, env) => handle(request, env),
    // Stands for the host of a request that names none (HTTP/1.0), as serve() does.
    hostname: config.host,
  }) as Server;
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

  // 3. Everything else: the database, recovery, jobs and the app.
  const { startChorus } = await import('./serve.ts');
  const shutdown = await startChorus({
    config,
    log,
    server,
    serveWith: (fetch) => (handle = fetch),
  });
  process.off('SIGTERM', stopWhileStarting);
  process.off('SIGINT', stopWhileStarting);
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
};

start().catch((error: unknown) => {
  console.error('Chorus failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
