import { isStorableDate } from '@chorus/shared/api/dates';

/** The sort key of the last row of a newest-first page: `created_at`, ties broken by `id`. */
export type KeysetCursor = { created_at: Date; id: string };

/** Cursors are opaque to clients: base64url of the last row's sort key. */
export const encodeCursor = (row: KeysetCursor): string =>
  Buffer.from(`${row.created_at.toISOString()}|${row.id}`).toString('base64url');

/**
 * Null for anything this server did not write (a forged cursor is a 400, never a 500), a date
 * the database cannot take (year 0, past 9999) included.
 */
export const decodeCursor = (cursor: string): KeysetCursor | null => {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = iso ? new Date(iso) : null;
  if (!createdAt || !isStorableDate(createdAt) || !id || !/^[0-9a-f-]{36}$/i.test(id)) return null;
  return { created_at: createdAt, id };
};

/**
 * A position in the conversation list: pinned conversations first (by `pinned_at`, newest first),
 * then the others (by `created_at`). A cursor after an unpinned row is a plain KeysetCursor.
 */
export type ConversationListCursor =
  ({ pinned?: false } & KeysetCursor) | { pinned: true; pinned_at: Date; id: string };

export const encodeConversationCursor = (row: {
  id: string;
  created_at: Date;
  pinned_at: Date | null;
}): string =>
  row.pinned_at
    ? Buffer.from(`pinned|${row.pinned_at.toISOString()}|${row.id}`).toString('base64url')
    : encodeCursor(row);

/** Null for anything this server did not write. */
export const decodeConversationCursor = (cursor: string): ConversationListCursor | null => {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith('pinned|')) {
    const after = decodeCursor(cursor);
    return after && { pinned: false, ...after };
  }
  const after = decodeCursor(Buffer.from(text.slice('pinned|'.length)).toString('base64url'));
  return after && { pinned: true, pinned_at: after.created_at, id: after.id };
};

/** A position in a conversation's write order (`messages.seq`), opaque to clients. */
export const encodeSeqCursor = (seq: number): string =>
  Buffer.from(`seq:${seq}`).toString('base64url');

/** Null for anything this server did not write. */
export const decodeSeqCursor = (cursor: string): number | null => {
  const match = /^seq:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : null;
};
