import { storageKeys } from '@chorus/shared/storage-keys';
import { storage } from '@/lib/storage';

/** A message whose send failed before the server had it: shown "Not sent", kept to retry. */
export type UnsentMessage = {
  /** The id it is sent with, every time: the server stores a message id once. */
  id: string;
  text: string;
  /** Why it did not go, in words a person can act on. */
  reason: string;
  /** The API's error code, when the server refused it. */
  code?: string | undefined;
  /** Epoch ms of the failed send. */
  at: number;
};

const none: UnsentMessage[] = [];

const keyOf = (userId: string, threadId: string) =>
  `${storageKeys.unsentPrefix}${userId}.${threadId}`;

const isUnsent = (value: unknown): value is UnsentMessage => {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.id === 'string' &&
    typeof record.text === 'string' &&
    typeof record.reason === 'string' &&
    typeof record.at === 'number'
  );
};

const parse = (raw: string | null): UnsentMessage[] => {
  if (!raw) return none;
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter(isUnsent) : none;
  } catch {
    return none;
  }
};

/**
 * The messages of each chat that did not reach the server, in this browser's storage so they
 * outlive a reload. Lists keep their identity until they change (for `useSyncExternalStore`).
 */
class UnsentStore {
  private readonly cache = new Map<string, UnsentMessage[]>();
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    if (this.listeners.size === 0) window.addEventListener('storage', this.onStorage);
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) window.removeEventListener('storage', this.onStorage);
    };
  };

  /** Another tab changed a list: read it again. */
  private readonly onStorage = (event: StorageEvent) => {
    if (event.key !== null && !event.key.startsWith(storageKeys.unsentPrefix)) return;
    if (event.key === null) this.cache.clear();
    else this.cache.delete(event.key);
    for (const listener of this.listeners) listener();
  };

  list(userId: string, threadId: string): UnsentMessage[] {
    const key = keyOf(userId, threadId);
    let list = this.cache.get(key);
    if (!list) {
      list = parse(storage.get(key));
      this.cache.set(key, list);
    }
    return list;
  }

  add(userId: string, threadId: string, message: UnsentMessage): void {
    const others = this.list(userId, threadId).filter((m) => m.id !== message.id);
    this.set(userId, threadId, [...others, message]);
  }

  remove(userId: string, threadId: string, ids: readonly string[]): void {
    const list = this.list(userId, threadId);
    const kept = list.filter((m) => !ids.includes(m.id));
    if (kept.length !== list.length) this.set(userId, threadId, kept);
  }

  /** Moves a new chat's unsent messages to the conversation made for them. */
  move(userId: string, from: string, to: string): void {
    const moving = this.list(userId, from);
    if (moving.length === 0) return;
    this.set(userId, to, [...this.list(userId, to), ...moving]);
    this.set(userId, from, []);
  }

  /** Forgets what is cached (sign-out removes the stored copies). */
  reset(): void {
    this.cache.clear();
    for (const listener of this.listeners) listener();
  }

  private set(userId: string, threadId: string, list: UnsentMessage[]): void {
    const key = keyOf(userId, threadId);
    const next = list.length === 0 ? none : list;
    this.cache.set(key, next);
    if (next.length === 0) storage.remove(key);
    else storage.set(key, JSON.stringify(next));
    for (const listener of this.listeners) listener();
  }
}

export const unsentMessages = new UnsentStore();
