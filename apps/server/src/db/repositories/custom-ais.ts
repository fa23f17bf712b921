import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { customAis } from '../schema/index.ts';

export type CustomAiRow = typeof customAis.$inferSelect;
export type CustomAiFields = Omit<
  typeof customAis.$inferInsert,
  'id' | 'user_id' | 'created_at' | 'updated_at'
>;

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

  async update(id: string, patch: Partial<CustomAiFields>): Promise<CustomAiRow | null> {
    const [row] = await this.db.update(customAis).set(patch).where(this.mine(id)).returning();
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
