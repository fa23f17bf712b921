import { and, asc, desc, eq, ilike, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { promptLimits } from '@chorus/shared/api/prompts';
import type { Db, Tx } from '../client.ts';
import type { KeysetCursor } from '../keyset-cursor.ts';
import { containsPattern } from '../like.ts';
import { prompts, promptVersions } from '../schema/index.ts';
import { recordLibraryUse } from './library-uses.ts';

export type PromptRow = typeof prompts.$inferSelect;
export type PromptVersionRow = typeof promptVersions.$inferSelect;

/** What a version holds: the fields whose change makes a new one. */
export type PromptContent = {
  title: string;
  content: string;
  description: string;
  category: string;
  tags: string[];
};

export type NewPrompt = PromptContent & {
  favorite: boolean;
  /** The published library entry it is a copy of. */
  source_id?: string | null;
};

export type PromptPatch = Partial<NewPrompt>;

/**
 * The list's sort key: a cursor holds milliseconds (ISO text), and rows written by the database's
 * own clock (library entries an admin added, seeds) carry microseconds. Sorting and comparing at
 * the cursor's precision pages through those too, without a row skipped or shown twice; a user
 * keeps at most `promptLimits.perUser` prompts, so the sort stays small.
 */
const createdMs = sql`date_trunc('milliseconds', ${prompts.created_at})`;

const contentKeys = ['title', 'content', 'description', 'category', 'tags'] as const;

const sameTags = (a: string[], b: string[]) =>
  a.length === b.length && a.every((tag, i) => tag === b[i]);

/** Whether `patch` changes any versioned field of `row`. */
const changesContent = (row: PromptRow, patch: Partial<PromptContent>): boolean =>
  contentKeys.some((key) => {
    const next = patch[key];
    if (next === undefined) return false;
    return key === 'tags' ? !sameTags(row.tags, next as string[]) : row[key] !== (next as string);
  });

const versionOf = (
  promptId: string,
  version: number,
  fields: PromptContent,
  at: Date,
): typeof promptVersions.$inferInsert => ({
  prompt_id: promptId,
  version,
  title: fields.title,
  content: fields.content,
  description: fields.description,
  category: fields.category,
  tags: fields.tags,
  created_at: at,
});

/**
 * A user's own prompts (issue 15). Every query carries the user: a prompt of someone else, or a
 * library entry another author wrote, is simply not there.
 */
export class PromptsRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  private own(id: string): SQL {
    return and(eq(prompts.id, id), eq(prompts.user_id, this.userId))!;
  }

  /** Serialises the user's writes that add prompts, so the limit holds under parallel calls. */
  private async lockLibrary(tx: Tx) {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`prompts:${this.userId}`}, 0))`,
    );
  }

  private async countIn(tx: Tx): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(prompts)
      .where(eq(prompts.user_id, this.userId));
    return Number(row?.n ?? 0);
  }

  /** The rows in order, each a millisecond newer than the one before: the last is the newest. */
  private async insertIn(tx: Tx, values: NewPrompt[]): Promise<PromptRow[]> {
    if (values.length === 0) return [];
    const first = Date.now() - (values.length - 1);
    const rows = await tx
      .insert(prompts)
      .values(
        values.map((v, i) => ({
          user_id: this.userId,
          title: v.title,
          content: v.content,
          description: v.description,
          category: v.category,
          tags: v.tags,
          favorite: v.favorite,
          source_id: v.source_id ?? null,
          version: 1,
          created_at: new Date(first + i),
          updated_at: new Date(first + i),
        })),
      )
      .returning();
    await tx
      .insert(promptVersions)
      .values(rows.map((row) => versionOf(row.id, 1, row, row.created_at)));
    return rows;
  }

  async get(id: string): Promise<PromptRow | undefined> {
    const [row] = await this.db.select().from(prompts).where(this.own(id)).limit(1);
    return row;
  }

  /** Newest first, keyset-paginated; `search` looks in the title, description, content and tags. */
  async list(opts: {
    limit: number;
    after?: KeysetCursor | undefined;
    search?: string | undefined;
    category?: string | undefined;
    favorite?: boolean | undefined;
  }): Promise<PromptRow[]> {
    const pattern = opts.search ? containsPattern(opts.search) : null;
    const { after } = opts;
    return this.db
      .select()
      .from(prompts)
      .where(
        and(
          eq(prompts.user_id, this.userId),
          opts.category ? eq(prompts.category, opts.category) : undefined,
          opts.favorite === undefined ? undefined : eq(prompts.favorite, opts.favorite),
          pattern
            ? or(
                ilike(prompts.title, pattern),
                ilike(prompts.description, pattern),
                ilike(prompts.content, pattern),
                sql`exists (select 1 from jsonb_array_elements_text(${prompts.tags}) as tag where tag ilike ${pattern})`,
              )
            : undefined,
          after &&
            or(
              sql`${createdMs} < ${after.created_at.toISOString()}::timestamptz`,
              and(
                sql`${createdMs} = ${after.created_at.toISOString()}::timestamptz`,
                lt(prompts.id, after.id),
              ),
            ),
        ),
      )
      .orderBy(desc(createdMs), desc(prompts.id))
      .limit(opts.limit);
  }

  /** Every category the user's prompts have, alphabetically (none for the empty one). */
  async categories(): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ category: prompts.category })
      .from(prompts)
      .where(and(eq(prompts.user_id, this.userId), ne(prompts.category, '')))
      .orderBy(asc(prompts.category));
    return rows.map((r) => r.category);
  }

  /** Every prompt of the user, oldest first (an export reads back in the order written). */
  async all(): Promise<PromptRow[]> {
    return this.db
      .select()
      .from(prompts)
      .where(eq(prompts.user_id, this.userId))
      .orderBy(asc(prompts.created_at), asc(prompts.id));
  }

  /** A new prompt with its version 1; 'too_many' once the user has `promptLimits.perUser`. */
  async create(values: NewPrompt): Promise<PromptRow | 'too_many'> {
    return this.db.transaction(async (tx) => {
      await this.lockLibrary(tx);
      if ((await this.countIn(tx)) >= promptLimits.perUser) return 'too_many';
      const [row] = await this.insertIn(tx, [values]);
      return row!;
    });
  }

  /**
   * Inserts the rows in order, each with its version 1, as many as the user still has room for.
   * Answers how many went in; the rest did not fit.
   */
  async importMany(values: NewPrompt[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      await this.lockLibrary(tx);
      const room = Math.max(0, promptLimits.perUser - (await this.countIn(tx)));
      return (await this.insertIn(tx, values.slice(0, room))).length;
    });
  }

  /** How many more prompts the user may keep. */
  async room(): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(prompts)
      .where(eq(prompts.user_id, this.userId));
    return Math.max(0, promptLimits.perUser - Number(row?.n ?? 0));
  }

  /**
   * Saves `patch` over the locked row: a change of a versioned field is a new version, and takes
   * a published prompt out of the library until an admin approves it again (public content never
   * changes without review). Nothing is written when nothing changes, unless `newVersion` asks.
   */
  private async save(
    tx: Tx,
    before: PromptRow,
    patch: PromptPatch,
    newVersion = false,
  ): Promise<PromptRow> {
    const changed = changesContent(before, patch);
    const favorite = patch.favorite !== undefined && patch.favorite !== before.favorite;
    if (!changed && !favorite && !newVersion) return before;
    const now = new Date();
    if (!changed && !newVersion) {
      // A favourite is no edit: the prompt keeps its place and its version.
      const [row] = await tx
        .update(prompts)
        .set({ favorite: patch.favorite!, updated_at: sql`${prompts.updated_at}` })
        .where(this.own(before.id))
        .returning();
      return row!;
    }
    const fields: PromptContent = {
      title: patch.title ?? before.title,
      content: patch.content ?? before.content,
      description: patch.description ?? before.description,
      category: patch.category ?? before.category,
      tags: patch.tags ?? before.tags,
    };
    const version = before.version + 1;
    const [row] = await tx
      .update(prompts)
      .set({
        ...fields,
        ...(patch.favorite !== undefined && { favorite: patch.favorite }),
        version,
        ...(changed && { published: false, featured: false }),
        updated_at: now,
      })
      .where(this.own(before.id))
      .returning();
    await tx.insert(promptVersions).values(versionOf(before.id, version, fields, now));
    return row!;
  }

  private async lockOwn(tx: Tx, id: string): Promise<PromptRow | undefined> {
    const [row] = await tx.select().from(prompts).where(this.own(id)).limit(1).for('update');
    return row;
  }

  async update(id: string, patch: PromptPatch): Promise<PromptRow | undefined> {
    return this.db.transaction(async (tx) => {
      const before = await this.lockOwn(tx, id);
      return before && this.save(tx, before, patch);
    });
  }

  async delete(id: string): Promise<boolean> {
    const deleted = await this.db.delete(prompts).where(this.own(id)).returning({ id: prompts.id });
    return deleted.length > 0;
  }

  /** Newest first; undefined when the prompt is not the user's. */
  async versions(id: string): Promise<PromptVersionRow[] | undefined> {
    if (!(await this.get(id))) return undefined;
    return this.db
      .select()
      .from(promptVersions)
      .where(eq(promptVersions.prompt_id, id))
      .orderBy(desc(promptVersions.version));
  }

  /** Saves an earlier version's fields as the newest version. */
  async restore(id: string, version: number): Promise<PromptRow | 'no_version' | undefined> {
    return this.db.transaction(async (tx) => {
      const before = await this.lockOwn(tx, id);
      if (!before) return undefined;
      const [old] = await tx
        .select()
        .from(promptVersions)
        .where(and(eq(promptVersions.prompt_id, id), eq(promptVersions.version, version)))
        .limit(1);
      if (!old) return 'no_version';
      const { title, content, description, category, tags } = old;
      return this.save(tx, before, { title, content, description, category, tags }, true);
    });
  }

  /**
   * Submits the prompt to the public library's curation queue, or withdraws it (which also takes
   * it out of the library).
   */
  async share(id: string, submit: boolean): Promise<PromptRow | undefined> {
    const [row] = await this.db
      .update(prompts)
      .set(submit ? { is_public: true } : { is_public: false, published: false, featured: false })
      .where(this.own(id))
      .returning();
    return row;
  }

  /**
   * A published library entry copied into the user's prompts, private and at version 1, and
   * counted as a copy of the entry (library_uses). Undefined when no published entry has this id.
   */
  async copyPublished(id: string): Promise<PromptRow | 'too_many' | undefined> {
    const [entry] = await this.db
      .select()
      .from(prompts)
      .where(and(eq(prompts.id, id), eq(prompts.published, true)))
      .limit(1);
    if (!entry) return undefined;
    return this.db.transaction(async (tx) => {
      await this.lockLibrary(tx);
      if ((await this.countIn(tx)) >= promptLimits.perUser) return 'too_many';
      const [row] = await this.insertIn(tx, [
        {
          title: entry.title,
          content: entry.content,
          description: entry.description,
          category: entry.category,
          tags: entry.tags,
          favorite: false,
          source_id: entry.id,
        },
      ]);
      await recordLibraryUse(tx, {
        kind: 'prompt',
        item_id: entry.id,
        user_id: this.userId,
        action: 'copy',
      });
      return row!;
    });
  }

  /** One more message sent with the prompt; nothing when it is not the user's. */
  async countUse(id: string): Promise<void> {
    await this.db
      .update(prompts)
      .set({
        use_count: sql`${prompts.use_count} + 1`,
        last_used_at: new Date(),
        updated_at: sql`${prompts.updated_at}`,
      })
      .where(this.own(id));
  }
}
