import {
  and,
  count,
  desc,
  eq,
  getTableColumns,
  ilike,
  isNull,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../client.ts';
import type { KeysetCursor } from '../keyset-cursor.ts';
import { containsPattern } from '../like.ts';
import { scenarioRuns, scenarios, testCases, type ScenarioRunResult } from '../schema/index.ts';
import { recordLibraryUse } from './library-uses.ts';

export type ScenarioRow = typeof scenarios.$inferSelect & { last_run_at: Date | null };
export type ScenarioRunRow = typeof scenarioRuns.$inferSelect;
export type TestCaseRow = typeof testCases.$inferSelect;

type Setup = Pick<
  typeof scenarios.$inferInsert,
  | 'title'
  | 'description'
  | 'category'
  | 'system_prompt'
  | 'user_prompt'
  | 'variables'
  | 'parameters'
  | 'targets'
>;

/** A cookbook entry from before prompts had their own field: its steps make the prompt. */
export const scenarioPrompt = (row: { user_prompt: string; steps: string[] }): string =>
  row.user_prompt.trim() ? row.user_prompt : row.steps.join('\n\n');

/** What a copied cookbook entry compares when its author named no models. */
export const defaultCopyTargets = [{ provider: 'openai', model: '' }];

/** Rows after `after` in newest-first order (`created_at`, ties by `id`). */
const before = (
  table: { created_at: AnyPgColumn; id: AnyPgColumn },
  after: KeysetCursor | undefined,
): SQL | undefined =>
  after &&
  or(
    lt(table.created_at, after.created_at),
    and(eq(table.created_at, after.created_at), lt(table.id, after.id)),
  );

/**
 * A user's own scenarios. Every query carries the user: someone else's scenario, and a cookbook
 * entry someone else wrote, are not found.
 */
export class ScenariosRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  private owned(id?: string): SQL {
    return id === undefined
      ? eq(scenarios.user_id, this.userId)
      : and(eq(scenarios.id, id), eq(scenarios.user_id, this.userId))!;
  }

  /**
   * With `last_run_at`: the newest run's start (scenario_runs_scenario_idx answers it). The outer
   * id is written out in full: drizzle names a column of a one-table select without its table,
   * which inside the subquery would mean the run's own id.
   */
  private select() {
    return this.db
      .select({
        ...getTableColumns(scenarios),
        last_run_at: sql<Date | null>`(
          select max(r.created_at) from ${scenarioRuns} r
          where r.scenario_id = "scenarios"."id" and r.user_id = ${this.userId}
        )`.mapWith(scenarioRuns.created_at),
      })
      .from(scenarios);
  }

  async list(opts: {
    limit: number;
    after?: KeysetCursor | undefined;
    search?: string | undefined;
  }): Promise<ScenarioRow[]> {
    const pattern = opts.search ? containsPattern(opts.search) : null;
    return this.select()
      .where(
        and(
          this.owned(),
          pattern
            ? or(ilike(scenarios.title, pattern), ilike(scenarios.description, pattern))
            : undefined,
          before(scenarios, opts.after),
        ),
      )
      .orderBy(desc(scenarios.created_at), desc(scenarios.id))
      .limit(opts.limit);
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(scenarios).where(this.owned());
    return Number(row?.n ?? 0);
  }

  async get(id: string): Promise<ScenarioRow | undefined> {
    const [row] = await this.select().where(this.owned(id)).limit(1);
    return row;
  }

  async create(values: Setup): Promise<ScenarioRow> {
    const [row] = await this.db
      .insert(scenarios)
      .values({ ...values, user_id: this.userId, is_public: false, published: false })
      .returning();
    return { ...row!, last_run_at: null };
  }

  /**
   * Copies a published cookbook entry into the user's scenarios, counted as a copy of the entry
   * (library_uses); the copy remembers its source, so its runs count for the entry too. Undefined
   * when there is no such published entry; 'too_many' when the user keeps `max` scenarios already.
   */
  async copyPublished(id: string, max: number): Promise<ScenarioRow | 'too_many' | undefined> {
    const [entry] = await this.db
      .select()
      .from(scenarios)
      .where(and(eq(scenarios.id, id), eq(scenarios.published, true)))
      .limit(1);
    if (!entry) return undefined;
    return this.db.transaction(async (tx) => {
      // Counted under the user's lock, as a new scenario is (quota/user-limits.ts).
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`scenarios:${this.userId}`}, 0))`,
      );
      const [counted] = await tx.select({ n: count() }).from(scenarios).where(this.owned());
      if (Number(counted?.n ?? 0) >= max) return 'too_many' as const;
      const [row] = await tx
        .insert(scenarios)
        .values({
          title: entry.title,
          description: entry.description,
          category: entry.category,
          system_prompt: entry.system_prompt,
          user_prompt: scenarioPrompt(entry),
          variables: entry.variables,
          parameters: entry.parameters,
          targets: entry.targets.length > 0 ? entry.targets : defaultCopyTargets,
          user_id: this.userId,
          is_public: false,
          published: false,
          source_id: entry.id,
        })
        .returning();
      await recordLibraryUse(tx, {
        kind: 'scenario',
        item_id: entry.id,
        user_id: this.userId,
        action: 'copy',
      });
      return { ...row!, last_run_at: null };
    });
  }

  async update(id: string, patch: Partial<Setup>): Promise<ScenarioRow | undefined> {
    const [row] = await this.db
      .update(scenarios)
      .set({ ...patch, updated_at: new Date() })
      .where(this.owned(id))
      .returning({ id: scenarios.id });
    return row && this.get(row.id);
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db
      .delete(scenarios)
      .where(this.owned(id))
      .returning({ id: scenarios.id });
    return rows.length > 0;
  }
}

/** Side-by-side runs of the user's scenarios and setups. */
export class ScenarioRunsRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  private owned(id: string): SQL {
    return and(eq(scenarioRuns.id, id), eq(scenarioRuns.user_id, this.userId))!;
  }

  async create(
    values: Omit<typeof scenarioRuns.$inferInsert, 'id' | 'user_id' | 'status'>,
  ): Promise<ScenarioRunRow> {
    const [row] = await this.db
      .insert(scenarioRuns)
      .values({ ...values, user_id: this.userId, status: 'running' })
      .returning();
    return row!;
  }

  async get(id: string): Promise<ScenarioRunRow | undefined> {
    const [row] = await this.db.select().from(scenarioRuns).where(this.owned(id)).limit(1);
    return row;
  }

  async listOfScenario(
    scenarioId: string,
    opts: { limit: number; after?: KeysetCursor | undefined },
  ): Promise<ScenarioRunRow[]> {
    return this.db
      .select()
      .from(scenarioRuns)
      .where(
        and(
          eq(scenarioRuns.scenario_id, scenarioId),
          eq(scenarioRuns.user_id, this.userId),
          before(scenarioRuns, opts.after),
        ),
      )
      .orderBy(desc(scenarioRuns.created_at), desc(scenarioRuns.id))
      .limit(opts.limit);
  }

  /**
   * Stores one column's outcome. Each column is set on its own, in one statement, so columns
   * ending together never overwrite each other; a rating given meanwhile is kept.
   */
  async saveResult(id: string, index: number, result: ScenarioRunResult): Promise<void> {
    await this.db
      .update(scenarioRuns)
      .set({
        results: sql`jsonb_set(
          ${scenarioRuns.results},
          ${`{${index}}`}::text[],
          ${JSON.stringify(result)}::jsonb
            || jsonb_build_object('rating', ${scenarioRuns.results} -> ${index}::int -> 'rating')
        )`,
      })
      .where(this.owned(id));
  }

  async finish(id: string): Promise<void> {
    await this.db
      .update(scenarioRuns)
      .set({ status: 'done', finished_at: new Date() })
      .where(this.owned(id));
  }

  /**
   * Sets the given ratings (index = column) and the winner. Undefined when the run is not the
   * user's; 'bad_target' when an index is beyond the run's columns.
   */
  async rate(
    id: string,
    patch: { ratings?: (number | null)[] | undefined; winner?: number | null | undefined },
  ): Promise<ScenarioRunRow | 'bad_target' | undefined> {
    const run = await this.get(id);
    if (!run) return undefined;
    const columns = run.results.length;
    if ((patch.ratings?.length ?? 0) > columns) return 'bad_target';
    if (patch.winner !== undefined && patch.winner !== null && patch.winner >= columns) {
      return 'bad_target';
    }
    // Only the ratings are written, each in place: a column a running run stores meanwhile keeps
    // its answer.
    let results: SQL = sql`${scenarioRuns.results}`;
    for (const [index, rating] of (patch.ratings ?? []).entries()) {
      results = sql`jsonb_set(${results}, ${`{${index},rating}`}::text[], ${JSON.stringify(rating)}::jsonb)`;
    }
    const [row] = await this.db
      .update(scenarioRuns)
      .set({
        ...(patch.ratings !== undefined && { results }),
        ...(patch.winner !== undefined && { winner: patch.winner }),
      })
      .where(this.owned(id))
      .returning();
    return row;
  }
}

/** Test cases the user saved (from scenario runs for now; the test runner files them later). */
export class TestCasesRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  async create(
    values: Omit<typeof testCases.$inferInsert, 'id' | 'user_id' | 'test_set_id'>,
  ): Promise<TestCaseRow> {
    const [row] = await this.db
      .insert(testCases)
      .values({ ...values, user_id: this.userId })
      .returning();
    return row!;
  }

  /** `unfiled`: only the cases no test set holds yet. */
  async list(limit: number, opts: { unfiled?: boolean | undefined } = {}): Promise<TestCaseRow[]> {
    return this.db
      .select()
      .from(testCases)
      .where(
        and(
          eq(testCases.user_id, this.userId),
          opts.unfiled ? isNull(testCases.test_set_id) : undefined,
        ),
      )
      .orderBy(desc(testCases.created_at), desc(testCases.id))
      .limit(limit);
  }
}
