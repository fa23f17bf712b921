import { and, count, desc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../client.ts';
import { customAis, users } from '../schema/index.ts';
import { writeAuditLog } from './audit-logs.ts';

export type CustomAiRow = typeof customAis.$inferSelect;
export type CustomAiFields = Omit<
  typeof customAis.$inferInsert,
  'id' | 'user_id' | 'created_at' | 'updated_at'
>;

/** Whether a change shows to the people a published custom AI is shared with. */
const visibleFields = [
  'name',
  'description',
  'avatar',
  'system_prompt',
  'provider',
  'model',
  'temperature',
  'top_p',
  'max_tokens',
  'starters',
] as const;

const changesWhatOthersSee = (row: CustomAiRow, patch: Partial<CustomAiFields>) =>
  visibleFields.some(
    (key) =>
      patch[key] !== undefined && JSON.stringify(patch[key]) !== JSON.stringify(row[key] ?? null),
  );

/** Back to private: out of /discover, and out of the curators' list. */
const unshared = {
  share_status: 'private',
  share_note: '',
  featured: false,
  share_requested_at: null,
  published_at: null,
} as const;

/** A user's custom AIs (issue 18); every query is scoped to `userId`. */
export class CustomAisRepository {
  constructor(
    private readonly db: Db,
    readonly userId: string,
  ) {}

  private mine(id: string) {
    return and(eq(customAis.id, id), eq(customAis.user_id, this.userId));
  }

  list(): Promise<CustomAiRow[]> {
    return this.db
      .select()
      .from(customAis)
      .where(eq(customAis.user_id, this.userId))
      .orderBy(desc(customAis.created_at), customAis.id);
  }

  async get(id: string): Promise<CustomAiRow | null> {
    const [row] = await this.db.select().from(customAis).where(this.mine(id));
    return row ?? null;
  }

  /** One of the user's, or a published one of someone else: what a chat may talk to. */
  async getUsable(id: string): Promise<CustomAiRow | null> {
    const [row] = await this.db
      .select()
      .from(customAis)
      .where(
        and(
          eq(customAis.id, id),
          or(eq(customAis.user_id, this.userId), eq(customAis.share_status, 'published')),
        ),
      );
    return row ?? null;
  }

  async count(): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(customAis)
      .where(eq(customAis.user_id, this.userId));
    return Number(row?.n ?? 0);
  }

  async create(fields: CustomAiFields): Promise<CustomAiRow> {
    const [row] = await this.db
      .insert(customAis)
      .values({ ...fields, user_id: this.userId })
      .returning();
    return row!;
  }

  /**
   * A change to a published custom AI that others would see sends it back for review: out of
   * /discover until an admin publishes it again (its knowledge bases are never shown, so a change
   * to them alone does not).
   */
  async update(id: string, patch: Partial<CustomAiFields>): Promise<CustomAiRow | null> {
    return this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(customAis).where(this.mine(id)).for('update');
      if (!before) return null;
      const recurate = before.share_status === 'published' && changesWhatOthersSee(before, patch);
      const [row] = await tx
        .update(customAis)
        .set({
          ...patch,
          ...(recurate && {
            share_status: 'submitted' as const,
            featured: false,
            published_at: null,
            share_requested_at: new Date(),
          }),
        })
        .where(this.mine(id))
        .returning();
      return row ?? null;
    });
  }

  /**
   * Asks the curators to publish it in /discover (again, after a rejection). Undefined when no
   * such custom AI of the user's; `published` when it already is (nothing changes).
   */
  async share(id: string, category: string): Promise<CustomAiRow | 'published' | undefined> {
    // One statement, so that a publish in between is never undone; a second read only says why
    // nothing changed.
    const [row] = await this.db
      .update(customAis)
      .set({
        share_status: 'submitted',
        share_note: '',
        category,
        share_requested_at: new Date(),
      })
      .where(and(this.mine(id), ne(customAis.share_status, 'published')))
      .returning();
    if (row) return row;
    return (await this.get(id)) ? 'published' : undefined;
  }

  /** Private again, and out of /discover. Null when no such custom AI of the user's. */
  async unshare(id: string): Promise<CustomAiRow | null> {
    const [row] = await this.db.update(customAis).set(unshared).where(this.mine(id)).returning();
    return row ?? null;
  }

  async remove(id: string): Promise<boolean> {
    const rows = await this.db
      .delete(customAis)
      .where(this.mine(id))
      .returning({ id: customAis.id });
    return rows.length > 0;
  }
}

export type CuratedCustomAi = { row: CustomAiRow; authorEmail: string | null };

/**
 * Admin curation of shared custom AIs. A private one (never shared, or unshared since) and a
 * rejected one are never listed, published or rejected here. Every decision is audited.
 */
export class CustomAiCurationRepository {
  constructor(
    private readonly db: Db,
    private readonly adminId: string,
  ) {}

  private curated = inArray(customAis.share_status, ['submitted', 'published']);

  async list(status: 'submitted' | 'published'): Promise<CuratedCustomAi[]> {
    const rows = await this.db
      .select({ row: customAis, authorEmail: users.email })
      .from(customAis)
      .leftJoin(users, eq(users.id, customAis.user_id))
      .where(eq(customAis.share_status, status))
      .orderBy(
        ...(status === 'published'
          ? [desc(customAis.featured), desc(customAis.published_at)]
          : [customAis.share_requested_at]),
        customAis.id,
      )
      .limit(500);
    return rows;
  }

  private async decide(
    id: string,
    action: 'publish_custom_ai' | 'reject_custom_ai',
    set: PgUpdateSetSource<typeof customAis>,
    details: Record<string, unknown>,
  ): Promise<CuratedCustomAi | undefined> {
    const decided = await this.db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(customAis)
        .where(and(eq(customAis.id, id), this.curated))
        .for('update');
      if (!before) return undefined;
      const [row] = await tx.update(customAis).set(set).where(eq(customAis.id, id)).returning();
      await writeAuditLog(tx, this.adminId, {
        action,
        table_name: 'custom_ais',
        record_id: id,
        details: {
          name: before.name,
          user_id: before.user_id,
          previous: { share_status: before.share_status, featured: before.featured },
          ...details,
        },
      });
      return row!;
    });
    if (!decided) return undefined;
    const [author] = await this.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, decided.user_id));
    return { row: decided, authorEmail: author?.email ?? null };
  }

  /** Into /discover (or, when published already, featured or not). */
  publish(id: string, featured: boolean) {
    return this.decide(
      id,
      'publish_custom_ai',
      {
        share_status: 'published',
        share_note: '',
        featured,
        // Featuring one already published keeps its place among the newest.
        published_at: sql`coalesce(${customAis.published_at}, now())`,
      },
      { featured },
    );
  }

  /** Back to its owner with a note; out of /discover if it was there. */
  reject(id: string, note: string) {
    return this.decide(
      id,
      'reject_custom_ai',
      { share_status: 'rejected', share_note: note, featured: false, published_at: null },
      { note },
    );
  }
}
