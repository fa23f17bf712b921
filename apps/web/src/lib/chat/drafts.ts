import { storageKeys } from '@chorus/shared/storage-keys';
import { storage } from '@/lib/storage';

/** The thread id of a chat that has no conversation yet (/chat). */
export const newThread = 'new';

const draftKey = (userId: string, threadId: string) =>
  `${storageKeys.draftPrefix}${userId}.${threadId}`;

/**
 * A chat's unsent text, kept in this browser per person and conversation so a reload, a crash
 * or a wander to another chat does not lose it. Sign-out removes it.
 */
export const drafts = {
  read: (userId: string, threadId: string): string => storage.get(draftKey(userId, threadId)) ?? '',
  write: (userId: string, threadId: string, text: string): void => {
    if (text.trim()) storage.set(draftKey(userId, threadId), text);
    else storage.remove(draftKey(userId, threadId));
  },
};

const sentLimit = 30;
const sentKey = (userId: string) => `${storageKeys.sentPrefix}${userId}`;

const parseTexts = (raw: string | null): string[] => {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value)
      ? value.filter((item): item is string => typeof item === 'string')
      : [];
  } catch {
    return [];
  }
};

/** What the person sent lately, oldest first: ↑ in an empty composer brings it back. */
export const sentHistory = {
  read: (userId: string): string[] => parseTexts(storage.get(sentKey(userId))),
  add: (userId: string, text: string): void => {
    const kept = sentHistory.read(userId).filter((earlier) => earlier !== text);
    storage.set(sentKey(userId), JSON.stringify([...kept, text].slice(-sentLimit)));
  },
};
