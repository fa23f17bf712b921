import { and, desc, eq, lt, or, sql, type SQL } from 'drizzle-orm';
import type { FilePurpose } from '@chorus/shared/limits';
import type { Db } from '../client.ts';
import type { KeysetCursor } from '../keyset-cursor.ts';
import { conversations, files } from '../schema/index.ts';

export type FileRow = typeof files.$inferSelect;

export type NewUpload = {
  id: string;
  storage_key: string;
  name: string;
  content_type: string;
  purpose: FilePurpose;
  conversation_id: string | null;
};

export type Reservation =
  | { ok: true; row: FileRow; reserved: number }
  | { ok: false; reason: 'quota'; used: number }
  | { ok: false; reason: 'conversation' };

/**
 * A user's files. Every query carries the user; another user's id finds nothing. Uploads run
 * reserve → (bytes streamed to the store) → complete, or discard when the upload fails.
 */
export class FilesRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  private mine(...conditions: (SQL | undefined)[]) {
    return and(eq(files.user_id, this.userId), ...conditions);
  }

  /**
   * Writes the upload's row before its first byte is stored, holding `want` bytes of the quota
   * (`exact`: all of them or nothing; otherwise as many as are left, up to `want`). The user's
   * advisory lock serialises reservations, so two parallel uploads can never both take the last
   * free bytes; the lock ends with the transaction.
   */
  async reserve(
    upload: NewUpload,
    limits: { want: number; exact: boolean; quota: number },
  ): Promise<Reservation> {
    return this.db.transaction(async (tx) => {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`files:${this.userId}`}, 0))`,
      );
      if (upload.conversation_id) {
        const [owned] = await tx
          .select({ id: conversations.id })
          .from(conversations)
          .where(
            and(
              eq(conversations.id, upload.conversation_id),
              eq(conversations.user_id, this.userId),
            ),
          )
          .limit(1);
        if (!owned) return { ok: false, reason: 'conversation' } as const;
      }
      const [usage] = await tx
        .select({ used: sql<string>`coalesce(sum(${files.size_bytes}), 0)` })
        .from(files)
        .where(this.mine());
      const used = Number(usage?.used ?? 0);
      const left = limits.quota - used;
      const reserved = limits.exact ? limits.want : Math.min(limits.want, left);
      if (reserved > left || left <= 0) return { ok: false, reason: 'quota', used } as const;
      const [row] = await tx
        .insert(files)
        .values({ ...upload, user_id: this.userId, size_bytes: reserved, status: 'uploading' })
        .returning();
      return { ok: true, row: row!, reserved } as const;
    });
  }

  /** The upload's bytes are stored: its real size and hash replace the reservation. */
  async complete(
    id: string,
    stored: { size: number; sha256: string },
  ): Promise<FileRow | undefined> {
    const [row] = await this.db
      .update(files)
      .set({ size_bytes: stored.size, sha256: stored.sha256, status: 'ready' })
      .where(this.mine(eq(files.id, id), eq(files.status, 'uploading')))
      .returning();
    return row;
  }

  /** Removes a row in any state; true when there was one. */
  async remove(id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(files)
      .where(this.mine(eq(files.id, id)))
      .returning({ id: files.id });
    return deleted.length > 0;
  }

  async get(id: string): Promise<FileRow | undefined> {
    const [row] = await this.db
      .select()
      .from(files)
      .where(this.mine(eq(files.id, id), eq(files.status, 'ready')))
      .limit(1);
    return row;
  }

  /** Newest first, keyset-paginated. */
  async list(opts: {
    limit: number;
    after?: KeysetCursor;
    purpose?: FilePurpose;
    conversationId?: string;
  }): Promise<FileRow[]> {
    return this.db
      .select()
      .from(files)
      .where(
        this.mine(
          eq(files.status, 'ready'),
          opts.purpose ? eq(files.purpose, opts.purpose) : undefined,
          opts.conversationId ? eq(files.conversation_id, opts.conversationId) : undefined,
          opts.after
            ? or(
                lt(files.created_at, opts.after.created_at),
                and(eq(files.created_at, opts.after.created_at), lt(files.id, opts.after.id)),
              )
            : undefined,
        ),
      )
      .orderBy(desc(files.created_at), desc(files.id))
      .limit(opts.limit);
  }

  /** Every row of a conversation, uploads in progress included (spec §4 deletes them all). */
  async listForConversation(conversationId: string): Promise<FileRow[]> {
    return this.db
      .select()
      .from(files)
      .where(this.mine(eq(files.conversation_id, conversationId)));
  }

  /** Bytes held: stored files plus what running uploads reserved. */
  async usedBytes(): Promise<number> {
    const [usage] = await this.db
      .select({ used: sql<string>`coalesce(sum(${files.size_bytes}), 0)` })
      .from(files)
      .where(this.mine());
    return Number(usage?.used ?? 0);
  }
}

/**
 * The one read that is not scoped by a user: a signed download link (HMAC over the id and
 * expiry, made only for the file's owner) is itself the permission to read the file.
 */
export const findFileForSignedLink = async (db: Db, id: string): Promise<FileRow | undefined> => {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), eq(files.status, 'ready')))
    .limit(1);
  return row;
};

/**
 * Uploads a crash cut off stay `uploading`, holding quota. At start, rows older than `olderThan`
 * are taken out and returned so their objects (if any were stored) can be deleted too.
 */
export const takeAbandonedUploads = (db: Db, olderThan: Date) =>
  db
    .delete(files)
    .where(and(eq(files.status, 'uploading'), lt(files.created_at, olderThan)))
    .returning({ id: files.id, storage_key: files.storage_key });
