import type { IncomingMessage, Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { Database } from '../db/client.ts';
import type { Deps } from '../http/app-env.ts';

/** After the grace period: how long interrupted replies and held-up saves get to be written. */
export const SAVE_DRAIN_MS = 5_000;

/**
 * A graceful stop (SIGTERM, SIGINT), in order (issue 13, point 15):
 * 1. stop accepting connections, and tell realtime sockets the server is going away;
 * 2. let chat streams finish, up to the grace period;
 * 3. interrupt the rest: each ends with "server restarting" and is saved as `interrupted` with
 *    its text;
 * 4. wait a little for saves held up by a database outage; give up on what is left, telling the
 *    clients still connected that their reply was not saved;
 * 5. stop background work and close every pool.
 * Resolves once everything is closed; the caller exits.
 */
export const stopGracefully = async (opts: {
  server: Server;
  deps: Deps;
  database: Database;
  graceMs: number;
}): Promise<void> => {
  const { server, deps, database } = opts;
  const { log } = deps;
  deps.streams.close();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Idle keep-alive sockets would hold close() open.
  server.closeIdleConnections();
  // Node keeps a connection that was busy when close() came open for keep-alive once its answer
  // ends, and serves the next request on it: nothing new is served now (its connection is
  // closed, so a client tries elsewhere), and connections are closed as soon as they are idle.
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage) => request.socket.destroy());
  const closeIdle = setInterval(() => server.closeIdleConnections(), 200);
  closeIdle.unref();
  void closed.then(() => clearInterval(closeIdle));
  void deps.realtime.close();

  if (!(await deps.streams.drain(opts.graceMs))) {
    log.warn({ streams: deps.streams.size }, 'grace period over: interrupting the replies left');
    deps.streams.interruptAll();
  }
  const [streamsEnded, savesDone] = await Promise.all([
    deps.streams.drain(SAVE_DRAIN_MS),
    deps.saves.drain(SAVE_DRAIN_MS),
  ]);
  if (!streamsEnded || !savesDone) {
    log.error({ saves: deps.saves.size }, 'the database is unavailable: giving up unsaved writes');
    deps.saves.giveUp();
    await deps.streams.drain(1_000);
  }
  // Connections whose answers have gone out are idle now; anything still busy gets a moment.
  server.closeIdleConnections();
  await Promise.race([closed, delay(1_000)]);
  server.closeAllConnections();
  await closed;

  await deps.mailer.settled();
  deps.mailer.useRetries(null);
  await deps.jobs.stop();
  deps.mailer.close();
  await deps.invalidation.close();
  await deps.storage.close();
  await deps.instance.stop();
  await database.close();
};
