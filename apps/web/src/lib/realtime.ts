import { realtimeTimings, type RealtimeChange } from '@chorus/shared/api/realtime';

type Listener = (change: RealtimeChange) => void;

/** The server's close code for "your session was ended" (suspended, revoked). */
const SESSION_ENDED_CLOSE_CODE = 4401;

/**
 * The per-user change feed at /realtime/v1 (spec §9 timings): connect within 10 s, send a
 * heartbeat every 30 s and expect an answer within 10 s, reconnect after 1, 2, 5, then 10 s.
 * One socket per tab, opened while anything listens.
 */
class RealtimeClient {
  private listeners = new Set<Listener>();
  private sessionEndedListeners = new Set<() => void>();
  private socket: WebSocket | undefined;
  private attempt = 0;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.connect();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.disconnect();
    };
  }

  /** Called when the server ends this user's session (e.g. an admin suspended the account). */
  onSessionEnded(listener: () => void): () => void {
    this.sessionEndedListeners.add(listener);
    return () => this.sessionEndedListeners.delete(listener);
  }

  private sessionEnded() {
    this.disconnect();
    for (const listener of this.sessionEndedListeners) listener();
  }

  private connect() {
    if (typeof WebSocket === 'undefined') return;
    const url = new URL('/realtime/v1', window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.socket = socket;
    const openTimeout = setTimeout(() => socket.close(), realtimeTimings.timeoutMs);
    this.timers.push(openTimeout);
    let ackTimeout: ReturnType<typeof setTimeout> | undefined;

    socket.onopen = () => {
      clearTimeout(openTimeout);
      this.attempt = 0;
      this.heartbeat = setInterval(() => {
        socket.send(JSON.stringify({ type: 'heartbeat' }));
        ackTimeout = setTimeout(() => socket.close(), realtimeTimings.timeoutMs);
      }, realtimeTimings.heartbeatMs);
    };
    socket.onmessage = (event) => {
      clearTimeout(ackTimeout);
      let message: { type?: string; change?: RealtimeChange };
      try {
        message = JSON.parse(String(event.data)) as typeof message;
      } catch {
        return;
      }
      if (message.type === 'session_ended') return this.sessionEnded();
      if (message.type === 'change' && message.change) {
        for (const listener of this.listeners) listener(message.change);
      }
    };
    socket.onclose = (event) => {
      clearTimeout(openTimeout);
      clearTimeout(ackTimeout);
      clearInterval(this.heartbeat);
      if (this.socket === socket && event.code === SESSION_ENDED_CLOSE_CODE) {
        return this.sessionEnded();
      }
      if (this.socket !== socket || this.listeners.size === 0) return;
      const delays = realtimeTimings.reconnectDelaysMs;
      const delay = delays[Math.min(this.attempt, delays.length - 1)]!;
      this.attempt += 1;
      this.timers.push(setTimeout(() => this.connect(), delay));
    };
  }

  private disconnect() {
    const socket = this.socket;
    this.socket = undefined;
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    clearInterval(this.heartbeat);
    socket?.close();
  }
}

export const realtime = new RealtimeClient();
