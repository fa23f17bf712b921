import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import { WebSocketServer, type WebSocket } from 'ws';
import type { RealtimeChange } from '@chorus/shared/api/realtime';
import type { Database, FeedState } from '../../db/client.ts';
import type { Logger } from '../../logger.ts';

export const REALTIME_PATH = '/realtime/v1';
const CHANNEL = 'chorus_realtime';
/** Server-side liveness check; clients send their own heartbeat every 30 s (spec §9). */
const PING_INTERVAL_MS = 30_000;
const MAX_SOCKETS_PER_USER = 20;

/** Close code telling the browser its session ended (suspended, revoked): do not reconnect. */
export const SESSION_ENDED_CLOSE_CODE = 4401;
/**
 * Close code (RFC 6455 "try again later") while the change feed is down: changes are being missed,
 * so the browser should reconnect, and refetch, once it is back.
 */
export const FEED_DOWN_CLOSE_CODE = 1013;

type Envelope =
  | { user_id: string; change: RealtimeChange }
  | { user_id: string; changes: RealtimeChange[] }
  | { user_id: string; session_ended: true; session_id?: string };

/**
 * The notice of `changes` as an SQL expression, to select in the very statement that makes them:
 * NOTIFY is delivered on commit, so the notice costs no round trip of its own and goes out only
 * if the change is stored.
 */
export const realtimeNotice = (userId: string, changes: RealtimeChange[]): SQL =>
  sql`pg_notify(${CHANNEL}, ${JSON.stringify({ user_id: userId, changes } satisfies Envelope)})`;

export type Realtime = {
  /** Tells every instance that `userId`'s data changed; only that user's sockets hear it. */
  publish(userId: string, change: RealtimeChange): Promise<void>;
  /** Tells every instance to close `userId`'s sockets: their sessions were ended on purpose. */
  endSessions(userId: string): Promise<void>;
  /** Tells every instance to close the sockets of one session (signed out or revoked). */
  endSession(userId: string, sessionId: string): Promise<void>;
  /** Accepts WebSocket upgrades at /realtime/v1 on the HTTP server. */
  attach(server: Server, authenticate: Authenticate): Promise<void>;
  /** `off` until attached; `unavailable` while the change feed (LISTEN) is down. */
  health(): 'ok' | 'unavailable' | 'off';
  close(): Promise<void>;
};

export type Authenticate = (
  req: IncomingMessage,
) => Promise<{ userId: string; sessionId: string } | { status: 401 | 403 }>;

/**
 * Changes travel through Postgres NOTIFY, so N server instances fan out the same events
 * (ARCHITECTURE §6, §8). Payloads carry ids only: clients refetch what they show.
 */
export const createRealtime = (database: Database, log: Logger): Realtime => {
  const sockets = new Map<string, Set<WebSocket>>();
  /** The session each socket was opened with, so a sign-out closes only that session's. */
  const sessionOf = new WeakMap<WebSocket, string>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 });
  let unlisten: (() => Promise<void>) | undefined;
  let pinger: NodeJS.Timeout | undefined;
  let feed: FeedState | undefined;

  /** While the feed is down sockets would miss changes unawares: they are closed instead. */
  const onFeed = (state: FeedState) => {
    feed = state;
    if (state === 'up') {
      log.info('realtime feed is listening');
      return;
    }
    log.warn({ sockets: sockets.size }, 'realtime feed is down; closing sockets until it is back');
    for (const own of sockets.values())
      for (const s of own) s.close(FEED_DOWN_CLOSE_CODE, 'live updates paused');
  };

  const deliver = (payload: string) => {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    const own = sockets.get(envelope.user_id) ?? [];
    if ('session_ended' in envelope) {
      for (const socket of own) {
        if (envelope.session_id && sessionOf.get(socket) !== envelope.session_id) continue;
        if (socket.readyState === socket.OPEN)
          socket.send(JSON.stringify({ type: 'session_ended' }));
        socket.close(SESSION_ENDED_CLOSE_CODE, 'session ended');
      }
      return;
    }
    const changes = 'changes' in envelope ? envelope.changes : [envelope.change];
    for (const change of changes) {
      const message = JSON.stringify({ type: 'change', change });
      for (const socket of own) {
        if (socket.readyState === socket.OPEN) socket.send(message);
      }
    }
  };

  const notify = async (envelope: Envelope) => {
    try {
      await database.db.execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify(envelope)})`);
    } catch (err) {
      // Realtime is a convenience: the change itself is already stored.
      log.warn({ err }, 'realtime publish failed');
    }
  };

  const refuse = (socket: Duplex, status: 401 | 403 | 404 | 429 | 503) => {
    const text = {
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      429: 'Too Many Requests',
      503: 'Service Unavailable',
    }[status];
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };

  const register = (userId: string, sessionId: string, socket: WebSocket) => {
    sessionOf.set(socket, sessionId);
    const own = sockets.get(userId) ?? new Set<WebSocket>();
    own.add(socket);
    sockets.set(userId, own);
    const alive = socket as WebSocket & { isAlive?: boolean };
    alive.isAlive = true;
    socket.on('pong', () => (alive.isAlive = true));
    socket.on('message', (data) => {
      alive.isAlive = true;
      // Spec §9 heartbeat: the client says it is there and expects an answer.
      if (String(data).includes('"heartbeat"'))
        socket.send(JSON.stringify({ type: 'heartbeat_ack' }));
    });
    socket.on('close', () => {
      own.delete(socket);
      if (own.size === 0) sockets.delete(userId);
    });
    socket.send(JSON.stringify({ type: 'ready' }));
  };

  return {
    publish: (userId, change) => notify({ user_id: userId, change }),
    endSessions: (userId) => notify({ user_id: userId, session_ended: true }),
    endSession: (userId, sessionId) =>
      notify({ user_id: userId, session_ended: true, session_id: sessionId }),
    async attach(server, authenticate) {
      unlisten = await database.listen(CHANNEL, deliver, onFeed);
      pinger = setInterval(() => {
        for (const own of sockets.values()) {
          for (const s of own) {
            const alive = s as WebSocket & { isAlive?: boolean };
            if (alive.isAlive === false) s.terminate();
            else {
              alive.isAlive = false;
              s.ping();
            }
          }
        }
      }, PING_INTERVAL_MS);
      pinger.unref();
      server.on('upgrade', (req, socket, head) => {
        // A client may reset the connection while we are still authenticating it; an 'error'
        // without a listener would take the whole process down.
        socket.on('error', () => socket.destroy());
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (path !== REALTIME_PATH) return refuse(socket, 404);
        if (feed !== 'up') return refuse(socket, 503);
        authenticate(req)
          .then((who) => {
            if ('status' in who) return refuse(socket, who.status);
            if ((sockets.get(who.userId)?.size ?? 0) >= MAX_SOCKETS_PER_USER)
              return refuse(socket, 429);
            wss.handleUpgrade(req, socket, head, (ws) => register(who.userId, who.sessionId, ws));
          })
          .catch((err: unknown) => {
            log.warn({ err }, 'realtime upgrade failed');
            refuse(socket, 401);
          });
      });
    },
    health: () => (feed === undefined ? 'off' : feed === 'up' ? 'ok' : 'unavailable'),
    async close() {
      clearInterval(pinger);
      for (const own of sockets.values()) for (const s of own) s.close(1001, 'server stopping');
      wss.close();
      await unlisten?.();
    },
  };
};
