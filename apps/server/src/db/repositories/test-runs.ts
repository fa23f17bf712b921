import { and, asc, count, desc, eq, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import type { AssertionResult, TestTarget } from '@chorus/shared/api/test-runs';
import type { MatrixResult } from '../../test-runner/matrix.ts';
import type { Db } from '../client.ts';
import type { KeysetCursor } from '../keyset-cursor.ts';
import { testResults, testRuns, testSets, users } from '../schema/index.ts';
import { ownerGone } from './instances.ts';

export type TestRunRow = typeof testRuns.$inferSelect;
export type TestResultRow = typeof testResults.$inferSelect;

/** One result as the engine writes it; the run and the user come from the repository. */
export type NewTestResult = Omit<typeof testResults.$inferInsert, 'id' | 'run_id' | 'user_id'>;

/** Usage beside the results (the judge's calls): counted in the run's totals only. */
export type ExtraUsage = { input_tokens: number; output_tokens: number; cost_usd: number | null };

export const activeStatuses = ['queued', 'running'] as const;

/** The stored key of a cell's repeat, for a resumed run to skip. */
export const resultKey = (r: { case_id: string; target: number; repeat: number }) =>
  `${r.case_id}|${r.target}|${r.repeat}`;

const addCost = (column: typeof testRuns.cost_usd, usd: number | null) =>
  usd === null ? sql`${column}` : sql`coalesce(${column}, 0) + ${usd}::double precision`;

/**
 * A user's test runs and their results (issue 20); every query is scoped to `userId`. Results
 * are written in batches; the run's counters grow by what a batch actually inserted, so a result
 * written twice (a resumed run racing an old worker) is neither stored nor counted twice.
 */
export class TestRunsRepository {
  constructor(
    private readonly db: Db,
    readonly userId: string,
  ) {}

  private mine(id: string) {
    return and(eq(testRuns.id, id), eq(testRuns.user_id, this.userId));
  }

  async create(fields: {
    test_set_id: string;
    name: string;
    source: 'app' | 'token';
    targets: TestTarget[];
    repeats: number;
    plan: Record<string, unknown>;
    total: number;
    estimated_cost_usd: number | null;
  }): Promise<TestRunRow> {
    const [row] = await this.db
      .insert(testRuns)
      .values({ ...fields, user_id: this.userId })
      .returning();
    return row!;
  }

  async get(id: string): Promise<TestRunRow | null> {
    const [row] = await this.db.select().from(testRuns).where(this.mine(id));
    return row ?? null;
  }

  /** Newest first, after a keyset position; only one set's when `testSetId` is given. */
  list(opts: {
    testSetId?: string | undefined;
    limit: number;
    after?: KeysetCursor | null | undefined;
  }): Promise<TestRunRow[]> {
    const after = opts.after;
    return this.db
      .select()
      .from(testRuns)
      .where(
        and(
          eq(testRuns.user_id, this.userId),
          opts.testSetId ? eq(testRuns.test_set_id, opts.testSetId) : undefined,
          after
            ? or(
                lt(testRuns.created_at, after.created_at),
                and(eq(testRuns.created_at, after.created_at), lt(testRuns.id, after.id)),
              )
            : undefined,
        ),
      )
      .orderBy(desc(testRuns.created_at), desc(testRuns.id))
      .limit(opts.limit);
  }

  /** Runs queued or going. */
  async countActive(): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(testRuns)
      .where(and(eq(testRuns.user_id, this.userId), inArray(testRuns.status, [...activeStatuses])));
    return Number(row?.n ?? 0);
  }

  /**
   * Takes a run to work on for `instanceId`: a queued one becomes running; a running one whose
   * instance is gone (its lease lapsed; ADR 018) is taken over (`resumed`), and so is one of this
   * instance's that the caller knows is not running here (its job failed on a lost write). Null
   * when it is neither — ended, or alive on another instance. One statement each, so of two
   * workers only one takes a run.
   */
  async claim(
    id: string,
    instanceId: string,
  ): Promise<{ run: TestRunRow; resumed: boolean } | null> {
    const [started] = await this.db
      .update(testRuns)
      .set({
        status: 'running',
        instance_id: instanceId,
        started_at: sql`coalesce(${testRuns.started_at}, now())`,
      })
      .where(and(this.mine(id), eq(testRuns.status, 'queued')))
      .returning();
    if (started) return { run: started, resumed: false };
    const [taken] = await this.db
      .update(testRuns)
      .set({ instance_id: instanceId, updated_at: new Date() })
      .where(
        and(
          this.mine(id),
          eq(testRuns.status, 'running'),
          or(ownerGone(testRuns.instance_id), eq(testRuns.instance_id, instanceId)),
        ),
      )
      .returning();
    return taken ? { run: taken, resumed: true } : null;
  }

  /**
   * The worker's beat: keeps `updated_at` fresh and answers whether to go on. `cancel`: a cancel
   * was asked for; `lost`: the run is no longer this instance's to run — it ended, is gone, or
   * was taken over after this instance was taken for gone — and must stop without ending it.
   */
  async heartbeat(id: string, instanceId: string): Promise<'go' | 'cancel' | 'lost'> {
    const [row] = await this.db
      .update(testRuns)
      .set({ updated_at: new Date() })
      .where(
        and(this.mine(id), eq(testRuns.status, 'running'), eq(testRuns.instance_id, instanceId)),
      )
      .returning({ cancel: testRuns.cancel_requested });
    return row ? (row.cancel ? 'cancel' : 'go') : 'lost';
  }

  /**
   * Stores a batch of results, skipping any already stored, and adds what was inserted (and
   * `extra`, the judge's usage) to the run's counters — one transaction, two statements.
   */
  async insertResults(
    runId: string,
    rows: readonly NewTestResult[],
    extra: ExtraUsage = { input_tokens: 0, output_tokens: 0, cost_usd: null },
  ): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [own] = await tx.select({ id: testRuns.id }).from(testRuns).where(this.mine(runId));
      if (!own) return 0;
      const inserted =
        rows.length === 0
          ? []
          : await tx
              .insert(testResults)
              .values(rows.map((r) => ({ ...r, run_id: runId, user_id: this.userId })))
              .onConflictDoNothing({
                target: [
                  testResults.run_id,
                  testResults.case_id,
                  testResults.target,
                  testResults.repeat,
                ],
              })
              .returning({
                passed: testResults.passed,
                error: testResults.error,
                input_tokens: testResults.input_tokens,
                output_tokens: testResults.output_tokens,
                cost_usd: testResults.cost_usd,
              });
      const priced = inserted.filter((r) => r.cost_usd !== null);
      const costs = [
        ...priced.map((r) => r.cost_usd!),
        ...(extra.cost_usd === null ? [] : [extra.cost_usd]),
      ];
      const cost = costs.length > 0 ? costs.reduce((a, b) => a + b, 0) : null;
      const sum = (pick: (r: (typeof inserted)[number]) => number) =>
        inserted.reduce((total, r) => total + pick(r), 0);
      if (
        inserted.length === 0 &&
        extra.input_tokens === 0 &&
        extra.output_tokens === 0 &&
        cost === null
      ) {
        return 0;
      }
      await tx
        .update(testRuns)
        .set({
          done: sql`${testRuns.done} + ${inserted.length}`,
          passed: sql`${testRuns.passed} + ${inserted.filter((r) => r.passed).length}`,
          errors: sql`${testRuns.errors} + ${inserted.filter((r) => r.error !== null).length}`,
          input_tokens: sql`${testRuns.input_tokens} + ${sum((r) => r.input_tokens) + extra.input_tokens}`,
          output_tokens: sql`${testRuns.output_tokens} + ${sum((r) => r.output_tokens) + extra.output_tokens}`,
          cost_usd: addCost(testRuns.cost_usd, cost),
        })
        .where(this.mine(runId));
      return inserted.length;
    });
  }

  /** The keys of the results stored (`resultKey`), for a resumed run to skip. */
  async storedKeys(runId: string): Promise<Set<string>> {
    const rows = await this.db
      .select({
        case_id: testResults.case_id,
        target: testResults.target,
        repeat: testResults.repeat,
      })
      .from(testResults)
      .where(and(eq(testResults.run_id, runId), eq(testResults.user_id, this.userId)));
    return new Set(rows.map(resultKey));
  }

  /** Ends a running run (or a queued one); null when it had ended already. */
  async finish(
    id: string,
    fields: {
      status: 'done' | 'failed' | 'cancelled';
      error: string | null;
      summary: Record<string, unknown>;
      baseline_run_id: string | null;
    },
  ): Promise<TestRunRow | null> {
    const [row] = await this.db
      .update(testRuns)
      .set({ ...fields, finished_at: new Date() })
      .where(and(this.mine(id), inArray(testRuns.status, [...activeStatuses])))
      .returning();
    return row ?? null;
  }

  /** Asks a queued or running run to stop; null when it is not the user's or has ended. */
  async requestCancel(id: string): Promise<TestRunRow | null> {
    const [row] = await this.db
      .update(testRuns)
      .set({ cancel_requested: true })
      .where(and(this.mine(id), inArray(testRuns.status, [...activeStatuses])))
      .returning();
    return row ?? null;
  }

  /** Deletes an ended run and its results; false when it is not the user's or still active. */
  async remove(id: string): Promise<boolean> {
    const rows = await this.db
      .delete(testRuns)
      .where(and(this.mine(id), notInArray(testRuns.status, [...activeStatuses])))
      .returning({ id: testRuns.id });
    return rows.length > 0;
  }

  /** The set's last run that ended `done` before this one: what a run is compared with. */
  async previousDone(run: Pick<TestRunRow, 'id' | 'test_set_id' | 'created_at'>) {
    const [row] = await this.db
      .select()
      .from(testRuns)
      .where(
        and(
          eq(testRuns.user_id, this.userId),
          eq(testRuns.test_set_id, run.test_set_id),
          eq(testRuns.status, 'done'),
          or(
            lt(testRuns.created_at, run.created_at),
            and(eq(testRuns.created_at, run.created_at), lt(testRuns.id, run.id)),
          ),
        ),
      )
      .orderBy(desc(testRuns.created_at), desc(testRuns.id))
      .limit(1);
    return row ?? null;
  }

  /** Where a set's 'test run' e-mail goes: the user's address, or null when it asks for none. */
  async notificationAddress(testSetId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ notify: testSets.notify, email: users.email })
      .from(testSets)
      .innerJoin(users, eq(users.id, testSets.user_id))
      .where(and(eq(testSets.id, testSetId), eq(testSets.user_id, this.userId)));
    return row?.notify ? row.email : null;
  }

  /** A run's results without their texts, for the matrix. */
  async resultsForMatrix(runId: string): Promise<MatrixResult[]> {
    const rows = await this.db
      .select({
        case_id: testResults.case_id,
        target: testResults.target,
        repeat: testResults.repeat,
        passed: testResults.passed,
        error: testResults.error,
        assertions: testResults.assertions,
        latency_ms: testResults.latency_ms,
        input_tokens: testResults.input_tokens,
        output_tokens: testResults.output_tokens,
        cost_usd: testResults.cost_usd,
      })
      .from(testResults)
      .where(and(eq(testResults.run_id, runId), eq(testResults.user_id, this.userId)));
    return rows.map((r) => ({ ...r, assertions: r.assertions as AssertionResult[] }));
  }

  /** Every result of a run in full, in case, target and repeat order (exports). */
  results(runId: string): Promise<TestResultRow[]> {
    return this.db
      .select()
      .from(testResults)
      .where(and(eq(testResults.run_id, runId), eq(testResults.user_id, this.userId)))
      .orderBy(asc(testResults.case_id), asc(testResults.target), asc(testResults.repeat));
  }

  /** One cell's results in full, by repeat. */
  cellResults(runId: string, caseId: string, target: number): Promise<TestResultRow[]> {
    return this.db
      .select()
      .from(testResults)
      .where(
        and(
          eq(testResults.run_id, runId),
          eq(testResults.user_id, this.userId),
          eq(testResults.case_id, caseId),
          eq(testResults.target, target),
        ),
      )
      .orderBy(asc(testResults.repeat));
  }
}

/**
 * Runs left `running` by an instance that is gone (ADR 018): the sweep queues each again, and the
 * worker's `claim` takes it over, once.
 */
export const abandonedTestRuns = (db: Db) =>
  db
    .select({ id: testRuns.id, user_id: testRuns.user_id })
    .from(testRuns)
    .where(and(eq(testRuns.status, 'running'), ownerGone(testRuns.instance_id)))
    .limit(100);
