import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../client.ts';
import { messages, prompts, scenarioRuns, userSettings } from '../schema/index.ts';

/** A fact about one user's data that a getting-started step is done by: an EXISTS over their rows. */
export type OnboardingFact = (userId: string) => SQL;

/** A reply the user received: stored, with text, and not a failure. */
export const hasChatReply: OnboardingFact = (userId) => sql`exists (
  select 1 from ${messages} m
  where m.user_id = ${userId} and m.role = 'assistant' and m.status in ('complete', 'interrupted')
    and m.content <> ''
)`;

/** A prompt of their own (written, imported or copied from the library). */
export const hasPrompt: OnboardingFact = (userId) =>
  sql`exists (select 1 from ${prompts} p where p.user_id = ${userId})`;

export const hasScenarioRun: OnboardingFact = (userId) =>
  sql`exists (select 1 from ${scenarioRuns} r where r.user_id = ${userId})`;

/**
 * The getting-started checklist's facts about one user, every one in a single round trip. Each
 * fact carries the user in its own `where`: no other user's rows can make a step done.
 */
export class OnboardingRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  /** Whether each fact holds, in the order given, and whether the user hid the checklist. */
  async facts(checks: OnboardingFact[]): Promise<{ holds: boolean[]; dismissed: boolean }> {
    const columns = checks.map((check, i) => sql`${check(this.userId)} as ${sql.raw(`f${i}`)}`);
    const result = await this.db.execute(sql`
      select ${sql.join(
        [
          ...columns,
          sql`exists (
            select 1 from ${userSettings} s
            where s.user_id = ${this.userId} and s.onboarding_dismissed_at is not null
          ) as dismissed`,
        ],
        sql`, `,
      )}
    `);
    const row = rowsOf<Record<string, boolean>>(result)[0] ?? {};
    return {
      holds: checks.map((_, i) => row[`f${i}`] === true),
      dismissed: row.dismissed === true,
    };
  }

  /** Hides the checklist (now) or shows it again. */
  async setDismissed(dismissed: boolean): Promise<void> {
    const at = dismissed ? new Date() : null;
    await this.db
      .insert(userSettings)
      .values({ user_id: this.userId, onboarding_dismissed_at: at })
      .onConflictDoUpdate({
        target: userSettings.user_id,
        set: { onboarding_dismissed_at: at, updated_at: new Date() },
      });
  }
}
