import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  testRunLimits,
  type Assertion,
  type CreateTestCase,
  type CreateTestSet,
  type Subject,
  type TestRunBrief,
  type TestSet,
  type TestSetCase,
  type UpdateTestCase,
  type UpdateTestSet,
} from '@chorus/shared/api/test-runs';
import { toTestRunBrief } from '../../test-runner/brief.ts';
import { resolveSubject, subjectKey, subjectNames } from '../../test-runner/subject.ts';
import type { Db, Tx } from '../client.ts';
import { testCases, testRuns, testSets } from '../schema/index.ts';

export type TestSetRow = typeof testSets.$inferSelect;
export type TestSetCaseRow = typeof testCases.$inferSelect;

const subjectOf = (row: TestSetRow): Subject => ({ kind: row.subject_kind, id: row.subject_id });

export const toTestSet = (
  row: TestSetRow,
  extra: { subjectName: string | null; caseCount: number; lastRun: TestRunBrief | null },
): TestSet => ({
  id: row.id,
  name: row.name,
  description: row.description,
  subject: subjectOf(row),
  subject_name: extra.subjectName,
  targets: row.targets as TestSet['targets'],
  repeats: row.repeats,
  notify: row.notify,
  case_count: extra.caseCount,
  last_run: extra.lastRun,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** A case as the contract has it: the `prompt` column is its `input`. */
export const toTestSetCase = (row: TestSetCaseRow): TestSetCase => ({
  id: row.id,
  test_set_id: row.test_set_id ?? '',
  name: row.name,
  input: row.prompt,
  variables: row.variables,
  expected_output: row.expected_output,
  assertions: row.assertions as Assertion[],
  position: row.position,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/**
 * A user's test sets and their cases (issue 20). Every query carries the user: someone else's
 * set, case or run is simply not there. Cases live in `test_cases` (with the unfiled cases saved
 * from scenario columns), here always with their set.
 */
export class TestSetsRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  private ownSet(id: string) {
    return and(eq(testSets.id, id), eq(testSets.user_id, this.userId));
  }

  private casesOf(setId: string) {
    return and(eq(testCases.test_set_id, setId), eq(testCases.user_id, this.userId));
  }

  /** Serialises writes that add sets or cases for this user, so the limits hold in parallel. */
  private async lock(tx: Tx, what: string) {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`${what}:${this.userId}`}, 0))`,
    );
  }

  /** The sets with their subject's name, case count and newest run: a fixed number of queries. */
  private async withExtras(rows: TestSetRow[]): Promise<TestSet[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [names, counts, runs] = await Promise.all([
      subjectNames(this.db, this.userId, rows.map(subjectOf)),
      this.db
        .select({ set: testCases.test_set_id, n: count() })
        .from(testCases)
        .where(and(eq(testCases.user_id, this.userId), inArray(testCases.test_set_id, ids)))
        .groupBy(testCases.test_set_id),
      this.db
        .selectDistinctOn([testRuns.test_set_id])
        .from(testRuns)
        .where(and(eq(testRuns.user_id, this.userId), inArray(testRuns.test_set_id, ids)))
        .orderBy(testRuns.test_set_id, desc(testRuns.created_at), desc(testRuns.id)),
    ]);
    const caseCount = new Map(counts.map((c) => [c.set, Number(c.n)]));
    const lastRun = new Map(runs.map((r) => [r.test_set_id, toTestRunBrief(r)]));
    return rows.map((row) =>
      toTestSet(row, {
        subjectName: names.get(subjectKey(subjectOf(row))) ?? null,
        caseCount: caseCount.get(row.id) ?? 0,
        lastRun: lastRun.get(row.id) ?? null,
      }),
    );
  }

  /** Newest first; a user keeps at most `setsPerUser`, so there is no paging. */
  async list(): Promise<TestSet[]> {
    const rows = await this.db
      .select()
      .from(testSets)
      .where(eq(testSets.user_id, this.userId))
      .orderBy(desc(testSets.created_at), desc(testSets.id));
    return this.withExtras(rows);
  }

  async getRow(id: string): Promise<TestSetRow | null> {
    const [row] = await this.db.select().from(testSets).where(this.ownSet(id)).limit(1);
    return row ?? null;
  }

  async get(id: string): Promise<TestSet | null> {
    const row = await this.getRow(id);
    return row ? ((await this.withExtras([row]))[0] ?? null) : null;
  }

  async create(input: CreateTestSet): Promise<TestSet | 'too_many' | 'subject_not_found'> {
    const subject = await resolveSubject(this.db, this.userId, input.subject);
    if (!subject) return 'subject_not_found';
    const row = await this.db.transaction(async (tx) => {
      await this.lock(tx, 'test_sets');
      const [counted] = await tx
        .select({ n: count() })
        .from(testSets)
        .where(eq(testSets.user_id, this.userId));
      if (Number(counted?.n ?? 0) >= testRunLimits.setsPerUser) return 'too_many' as const;
      const [inserted] = await tx
        .insert(testSets)
        .values({
          user_id: this.userId,
          name: input.name,
          description: input.description,
          subject_kind: input.subject.kind,
          subject_id: input.subject.id,
          targets: input.targets,
          repeats: input.repeats,
          notify: input.notify,
        })
        .returning();
      return inserted!;
    });
    if (row === 'too_many') return row;
    return toTestSet(row, {
      subjectName: subject.name,
      caseCount: 0,
      lastRun: null,
    });
  }

  /** Null when there is no such set of the user's. */
  async update(id: string, patch: UpdateTestSet): Promise<TestSet | 'subject_not_found' | null> {
    if (patch.subject && !(await resolveSubject(this.db, this.userId, patch.subject))) {
      return 'subject_not_found';
    }
    const [row] = await this.db
      .update(testSets)
      .set({
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.subject !== undefined && {
          subject_kind: patch.subject.kind,
          subject_id: patch.subject.id,
        }),
        ...(patch.targets !== undefined && { targets: patch.targets }),
        ...(patch.repeats !== undefined && { repeats: patch.repeats }),
        ...(patch.notify !== undefined && { notify: patch.notify }),
        updated_at: new Date(),
      })
      .where(this.ownSet(id))
      .returning();
    return row ? ((await this.withExtras([row]))[0] ?? null) : null;
  }

  /** The set, its cases, runs and results; false when there is no such set of the user's. */
  async delete(id: string): Promise<boolean> {
    const rows = await this.db
      .delete(testSets)
      .where(this.ownSet(id))
      .returning({ id: testSets.id });
    return rows.length > 0;
  }

  // -------------------------------------------------------------------------------------------
  // Cases

  /** In order (position, then age); null when there is no such set of the user's. */
  async listCaseRows(setId: string): Promise<TestSetCaseRow[] | null> {
    if (!(await this.getRow(setId))) return null;
    return this.db
      .select()
      .from(testCases)
      .where(this.casesOf(setId))
      .orderBy(asc(testCases.position), asc(testCases.created_at), asc(testCases.id));
  }

  async listCases(setId: string): Promise<TestSetCase[] | null> {
    return (await this.listCaseRows(setId))?.map(toTestSetCase) ?? null;
  }

  /** Within the set's lock: how many cases it holds, and the position after its last. */
  private async roomIn(tx: Tx, setId: string): Promise<{ count: number; next: number }> {
    const [row] = await tx
      .select({
        n: count(),
        last: sql<number | null>`max(${testCases.position})`,
      })
      .from(testCases)
      .where(this.casesOf(setId));
    const last = row?.last === null || row?.last === undefined ? -1 : Number(row.last);
    return { count: Number(row?.n ?? 0), next: last + 1 };
  }

  /**
   * Adds cases at the end of the set, all or none: null when there is no such set of the
   * user's, 'too_many_cases' past `casesPerSet`.
   */
  async insertCases(
    setId: string,
    cases: CreateTestCase[],
  ): Promise<TestSetCaseRow[] | 'too_many_cases' | null> {
    return this.db.transaction(async (tx) => {
      const [set] = await tx
        .select({ id: testSets.id })
        .from(testSets)
        .where(this.ownSet(setId))
        .limit(1);
      if (!set) return null;
      await this.lock(tx, `test_cases:${setId}`);
      const room = await this.roomIn(tx, setId);
      if (room.count + cases.length > testRunLimits.casesPerSet) return 'too_many_cases';
      if (cases.length === 0) return [];
      const first = Date.now();
      const rows = await tx
        .insert(testCases)
        .values(
          cases.map((c, i) => ({
            user_id: this.userId,
            test_set_id: setId,
            name: c.name,
            system_prompt: '',
            prompt: c.input,
            variables: c.variables,
            expected_output: c.expected_output,
            provider: null,
            model: null,
            assertions: c.assertions,
            position: room.next + i,
            // A millisecond apart, so the order holds even where positions tie later.
            created_at: new Date(first + i),
            updated_at: new Date(first + i),
          })),
        )
        .returning();
      await tx.update(testSets).set({ updated_at: new Date() }).where(this.ownSet(setId));
      return rows.sort((a, b) => a.position - b.position);
    });
  }

  async createCase(
    setId: string,
    input: CreateTestCase,
  ): Promise<TestSetCase | 'too_many_cases' | null> {
    const rows = await this.insertCases(setId, [input]);
    return Array.isArray(rows) ? toTestSetCase(rows[0]!) : rows;
  }

  /** Null when the set is not the user's or the case is not in it. */
  async updateCase(
    setId: string,
    caseId: string,
    patch: UpdateTestCase,
  ): Promise<TestSetCase | null> {
    const [row] = await this.db
      .update(testCases)
      .set({
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.input !== undefined && { prompt: patch.input }),
        ...(patch.variables !== undefined && { variables: patch.variables }),
        ...(patch.expected_output !== undefined && { expected_output: patch.expected_output }),
        ...(patch.assertions !== undefined && { assertions: patch.assertions }),
        ...(patch.position !== undefined && { position: patch.position }),
        updated_at: new Date(),
      })
      .where(and(eq(testCases.id, caseId), this.casesOf(setId)))
      .returning();
    return row ? toTestSetCase(row) : null;
  }

  async deleteCase(setId: string, caseId: string): Promise<boolean> {
    const rows = await this.db
      .delete(testCases)
      .where(and(eq(testCases.id, caseId), this.casesOf(setId)))
      .returning({ id: testCases.id });
    return rows.length > 0;
  }

  /**
   * Files the user's unfiled cases (saved from scenario columns) into the set, at its end; ids
   * of cases filed already, or someone else's, simply match nothing. The number filed; null when
   * there is no such set of the user's.
   */
  async fileCases(setId: string, caseIds: string[]): Promise<number | 'too_many_cases' | null> {
    return this.db.transaction(async (tx) => {
      const [set] = await tx
        .select({ id: testSets.id })
        .from(testSets)
        .where(this.ownSet(setId))
        .limit(1);
      if (!set) return null;
      await this.lock(tx, `test_cases:${setId}`);
      const unfiled = await tx
        .select({ id: testCases.id })
        .from(testCases)
        .where(
          and(
            eq(testCases.user_id, this.userId),
            isNull(testCases.test_set_id),
            inArray(testCases.id, [...new Set(caseIds)]),
          ),
        )
        .orderBy(asc(testCases.created_at), asc(testCases.id));
      if (unfiled.length === 0) return 0;
      const room = await this.roomIn(tx, setId);
      if (room.count + unfiled.length > testRunLimits.casesPerSet) return 'too_many_cases';
      const ids = unfiled.map((u) => u.id);
      // Each keeps the order it was saved in, after the set's last case.
      const positions = sql.join(
        ids.map((id, i) => sql`when ${id}::uuid then ${room.next + i}::int`),
        sql` `,
      );
      const filed = await tx
        .update(testCases)
        .set({
          test_set_id: setId,
          position: sql`case ${testCases.id} ${positions} end`,
          updated_at: new Date(),
        })
        .where(
          and(
            eq(testCases.user_id, this.userId),
            isNull(testCases.test_set_id),
            inArray(testCases.id, ids),
          ),
        )
        .returning({ id: testCases.id });
      await tx.update(testSets).set({ updated_at: new Date() }).where(this.ownSet(setId));
      return filed.length;
    });
  }
}
