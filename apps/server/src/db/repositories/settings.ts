import { eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { userSettings } from '../schema/index.ts';

export type SettingsRow = typeof userSettings.$inferSelect;

export class SettingsRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  async get(): Promise<SettingsRow | undefined> {
    const [row] = await this.db
      .select()
      .from(userSettings)
      .where(eq(userSettings.user_id, this.userId))
      .limit(1);
    return row;
  }

  async upsert(patch: { default_ai_provider?: string | null; default_ai_model?: string | null }) {
    const [row] = await this.db
      .insert(userSettings)
      .values({ user_id: this.userId, ...patch })
      .onConflictDoUpdate({ target: userSettings.user_id, set: patch })
      .returning();
    return row!;
  }
}
