import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type {
  AdminLibraryQuery,
  AdminPrompt,
  AdminScenario,
  CurationPatch,
  LibraryKind,
  LibraryPrompt,
  LibraryScenario,
} from '@chorus/shared/api/library';
import type { Db } from '../client.ts';
import { containsPattern } from '../like.ts';
import { prompts, scenarios, users } from '../schema/index.ts';
import { writeAuditLog } from './audit-logs.ts';
import { scenarioPrompt } from './scenarios.ts';

/**
 * Both collections share their curation columns (title, description, category, is_public,
 * published, featured); the queries below only touch those, so one table type serves both.
 */
type CuratedTable = typeof prompts;
const tableOf = (kind: LibraryKind): CuratedTable =>
  kind === 'prompts' ? prompts : (scenarios as unknown as CuratedTable);

type Row = typeof prompts.$inferSelect & Partial<typeof scenarios.$inferSelect>;

const base = (r: Row) => ({
  id: r.id,
  title: r.title,
  description: r.description,
  category: r.category,
  published: r.published,
  featured: r.featured,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

const toPublic = (kind: LibraryKind, r: Row): LibraryPrompt | LibraryScenario =>
  kind === 'prompts'
    ? { ...base(r), content: r.content, tags: r.tags }
    : {
        ...base(r),
        steps: r.steps ?? [],
        system_prompt: r.system_prompt ?? '',
        user_prompt: scenarioPrompt({ user_prompt: r.user_prompt ?? '', steps: r.steps ?? [] }),
        targets: r.targets ?? [],
      };

const toAdmin = (
  kind: LibraryKind,
  r: Row,
  authorEmail: string | null,
): AdminPrompt | AdminScenario => ({
  ...toPublic(kind, r),
  user_id: r.user_id,
  author_email: authorEmail,
  is_public: r.is_public,
});

/** Published entries, featured first, for everyone (the public library and cookbook). */
export const listPublished = async (
  db: Db,
  kind: LibraryKind,
): Promise<(LibraryPrompt | LibraryScenario)[]> => {
  const table = tableOf(kind);
  const rows = (await db
    .select()
    .from(table)
    .where(eq(table.published, true))
    .orderBy(desc(table.featured), desc(table.updated_at), asc(table.title))
    .limit(500)) as Row[];
  return rows.map((r) => toPublic(kind, r));
};

/**
 * Admin curation of what authors shared and what is published. A private entry nobody shared
 * is never listed, changed or deleted here.
 */
export class CurationRepository {
  private readonly table: CuratedTable;
  constructor(
    private readonly db: Db,
    private readonly adminId: string,
    private readonly kind: LibraryKind,
  ) {
    this.table = tableOf(kind);
  }

  private curated(): SQL {
    return or(eq(this.table.is_public, true), eq(this.table.published, true))!;
  }

  async list(query: AdminLibraryQuery) {
    const t = this.table;
    const status =
      query.status === 'published'
        ? eq(t.published, true)
        : query.status === 'unpublished'
          ? eq(t.published, false)
          : query.status === 'featured'
            ? eq(t.featured, true)
            : undefined;
    const pattern = query.search ? containsPattern(query.search) : null;
    const where = and(
      this.curated(),
      status,
      pattern ? or(ilike(t.title, pattern), ilike(t.description, pattern)) : undefined,
    );
    const [rows, [count]] = await Promise.all([
      this.db
        .select({ row: t, email: users.email })
        .from(t)
        .leftJoin(users, eq(users.id, t.user_id))
        .where(where)
        .orderBy(desc(t.featured), desc(t.published), desc(t.updated_at))
        .limit(query.limit)
        .offset(query.offset),
      this.db
        .select({ total: sql<number>`count(*)::int` })
        .from(t)
        .where(where),
    ]);
    return {
      total: Number(count?.total ?? 0),
      items: rows.map((r) => toAdmin(this.kind, r.row as Row, r.email)),
    };
  }

  private async findCurated(id: string): Promise<Row | undefined> {
    const [row] = await this.db
      .select()
      .from(this.table)
      .where(and(eq(this.table.id, id), this.curated()))
      .limit(1);
    return row as Row | undefined;
  }

  private async withEmail(row: Row) {
    const [author] = row.user_id
      ? await this.db.select({ email: users.email }).from(users).where(eq(users.id, row.user_id))
      : [];
    return toAdmin(this.kind, row, author?.email ?? null);
  }

  /** Featuring publishes; unpublishing unfeatures. Undefined when no such curated entry. */
  async curate(id: string, patch: CurationPatch) {
    const before = await this.findCurated(id);
    if (!before) return undefined;
    let published = patch.published ?? before.published;
    let featured = patch.featured ?? before.featured;
    if (patch.featured === true) published = true;
    if (patch.published === false) featured = false;
    const updated = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(this.table)
        .set({ published, featured, updated_at: new Date() })
        .where(eq(this.table.id, id))
        .returning();
      await writeAuditLog(tx, this.adminId, {
        action: `curate_${this.kind === 'prompts' ? 'prompt' : 'scenario'}`,
        table_name: this.kind,
        record_id: id,
        details: {
          title: before.title,
          published,
          featured,
          previous: { published: before.published, featured: before.featured },
        },
      });
      return row as Row;
    });
    return this.withEmail(updated);
  }

  async create(values: Record<string, unknown> & { title: string }) {
    const row = await this.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(this.table)
        .values({
          ...(values as typeof prompts.$inferInsert),
          featured: Boolean(values.featured),
          published: Boolean(values.published) || Boolean(values.featured),
          user_id: this.adminId,
          is_public: true,
        })
        .returning();
      await writeAuditLog(tx, this.adminId, {
        action: `create_${this.kind === 'prompts' ? 'prompt' : 'scenario'}`,
        table_name: this.kind,
        record_id: created!.id,
        details: { title: values.title },
      });
      return created as Row;
    });
    return this.withEmail(row);
  }

  async remove(id: string): Promise<boolean> {
    const before = await this.findCurated(id);
    if (!before) return false;
    await this.db.transaction(async (tx) => {
      await tx.delete(this.table).where(eq(this.table.id, id));
      await writeAuditLog(tx, this.adminId, {
        action: `delete_${this.kind === 'prompts' ? 'prompt' : 'scenario'}`,
        table_name: this.kind,
        record_id: id,
        details: { title: before.title, user_id: before.user_id },
      });
    });
    return true;
  }
}
