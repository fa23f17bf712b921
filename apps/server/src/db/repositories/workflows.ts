import { and, count, desc, eq, lt, or } from 'drizzle-orm';
import type { WorkflowInput, WorkflowStep } from '@chorus/shared/api/workflows';
import type { Db, Queryable } from '../client.ts';
import type { KeysetCursor } from '../keyset-cursor.ts';
import { workflowRuns, workflows, workflowVersions } from '../schema/index.ts';
import { ownerGone } from './instances.ts';

export type WorkflowRow = typeof workflows.$inferSelect;
export type WorkflowVersionRow = typeof workflowVersions.$inferSelect;
export type WorkflowRunRow = typeof workflowRuns.$inferSelect;

/** What a user sets on a workflow; what each version keeps. */
export type WorkflowFields = {
  name: string;
  description: string;
  inputs: WorkflowInput[];
  steps: WorkflowStep[];
};

const snapshotOf = (row: WorkflowFields): WorkflowFields => ({
  name: row.name,
  description: row.description,
  inputs: row.inputs,
  steps: row.steps,
});

/** jsonb keeps an object's keys in its own order: compare with keys sorted. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
        )
      : value;

const sameFields = (a: WorkflowFields, b: WorkflowFields) =>
  JSON.stringify(canonical(snapshotOf(a))) === JSON.stringify(canonical(snapshotOf(b)));

/** A stored row's fields, typed as the contract's. */
export const fieldsOfRow = (row: {
  name: string;
  description: string;
  inputs: unknown[];
  steps: unknown[];
}): WorkflowFields => ({
  name: row.name,
  description: row.description,
  inputs: row.inputs as WorkflowInput[],
  steps: row.steps as WorkflowStep[],
});

/** A saved version's fields. */
export const fieldsOfSnapshot = (row: WorkflowVersionRow): WorkflowFields => {
  const s = row.snapshot as Partial<WorkflowFields>;
  return {
    name: s.name ?? '',
    description: s.description ?? '',
    inputs: s.inputs ?? [],
    steps: s.steps ?? [],
  };
};

/**
 * A user's workflows (issue 19) and their saved versions; every query is scoped to `userId`.
 * Each change is a new version written in the same transaction; a restore is one more change.
 */
export class WorkflowsRepository {
  constructor(
    private readonly db: Db,
    readonly userId: string,
  ) {}

  private mine(id: string) {
    return and(eq(workflows.id, id), eq(workflows.user_id, this.userId));
  }

  list(): Promise<WorkflowRow[]> {
    return this.db
      .select()
      .from(workflows)
      .where(eq(workflows.user_id, this.userId))
      .orderBy(desc(workflows.created_at), workflows.id);
  }

  async get(id: string): Promise<WorkflowRow | null> {
    const [row] = await this.db.select().from(workflows).where(this.mine(id));
    return row ?? null;
  }

  async count(): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(workflows)
      .where(eq(workflows.user_id, this.userId));
    return Number(row?.n ?? 0);
  }

  create(fields: WorkflowFields): Promise<WorkflowRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(workflows)
        .values({ ...snapshotOf(fields), user_id: this.userId, version: 1 })
        .returning();
      await this.saveVersion(tx, row!);
      return row!;
    });
  }

  /** Applies `patch` as a new version (none when nothing changes); null when not the user's. */
  update(id: string, patch: Partial<WorkflowFields>): Promise<WorkflowRow | null> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx.select().from(workflows).where(this.mine(id)).for('update');
      if (!current) return null;
      const next = { ...fieldsOfRow(current), ...patch };
      if (sameFields(fieldsOfRow(current), next)) return current;
      const [row] = await tx
        .update(workflows)
        .set({ ...snapshotOf(next), version: current.version + 1, updated_at: new Date() })
        .where(this.mine(id))
        .returning();
      await this.saveVersion(tx, row!);
      return row!;
    });
  }

  async remove(id: string): Promise<boolean> {
    const rows = await this.db
      .delete(workflows)
      .where(this.mine(id))
      .returning({ id: workflows.id });
    return rows.length > 0;
  }

  /** Newest first; empty when the workflow is not the user's. */
  versions(workflowId: string): Promise<WorkflowVersionRow[]> {
    return this.db
      .select()
      .from(workflowVersions)
      .where(
        and(
          eq(workflowVersions.workflow_id, workflowId),
          eq(workflowVersions.user_id, this.userId),
        ),
      )
      .orderBy(desc(workflowVersions.version));
  }

  async version(workflowId: string, version: number): Promise<WorkflowVersionRow | null> {
    const [row] = await this.db
      .select()
      .from(workflowVersions)
      .where(
        and(
          eq(workflowVersions.workflow_id, workflowId),
          eq(workflowVersions.user_id, this.userId),
          eq(workflowVersions.version, version),
        ),
      );
    return row ?? null;
  }

  private saveVersion(tx: Queryable, row: WorkflowRow) {
    return tx.insert(workflowVersions).values({
      workflow_id: row.id,
      user_id: this.userId,
      version: row.version,
      snapshot: snapshotOf(fieldsOfRow(row)),
      created_at: row.updated_at,
    });
  }
}

export type NewWorkflowRun = Pick<
  typeof workflowRuns.$inferInsert,
  'workflow_id' | 'workflow_name' | 'version' | 'definition' | 'trigger' | 'inputs' | 'steps'
>;

export type WorkflowRunPatch = Partial<
  Pick<
    typeof workflowRuns.$inferInsert,
    | 'status'
    | 'steps'
    | 'output'
    | 'error_code'
    | 'error_message'
    | 'error_step_id'
    | 'input_tokens'
    | 'output_tokens'
    | 'cost_usd'
    | 'cancel_requested'
    | 'instance_id'
    | 'started_at'
    | 'finished_at'
  >
>;

/** A user's workflow runs; every query is scoped to `userId`. */
export class WorkflowRunsRepository {
  constructor(
    private readonly db: Db,
    readonly userId: string,
  ) {}

  private mine(id: string) {
    return and(eq(workflowRuns.id, id), eq(workflowRuns.user_id, this.userId));
  }

  async create(run: NewWorkflowRun): Promise<WorkflowRunRow> {
    const [row] = await this.db
      .insert(workflowRuns)
      .values({ ...run, user_id: this.userId, status: 'queued' })
      .returning();
    return row!;
  }

  async get(id: string): Promise<WorkflowRunRow | null> {
    const [row] = await this.db.select().from(workflowRuns).where(this.mine(id));
    return row ?? null;
  }

  /** A workflow's runs, newest first, after `after` (keyset). */
  list(
    workflowId: string,
    opts: { limit: number; after?: KeysetCursor | undefined },
  ): Promise<WorkflowRunRow[]> {
    const { after } = opts;
    return this.db
      .select()
      .from(workflowRuns)
      .where(
        and(
          eq(workflowRuns.workflow_id, workflowId),
          eq(workflowRuns.user_id, this.userId),
          after &&
            or(
              lt(workflowRuns.created_at, after.created_at),
              and(eq(workflowRuns.created_at, after.created_at), lt(workflowRuns.id, after.id)),
            ),
        ),
      )
      .orderBy(desc(workflowRuns.created_at), desc(workflowRuns.id))
      .limit(opts.limit);
  }

  async update(id: string, patch: WorkflowRunPatch): Promise<WorkflowRunRow | null> {
    const [row] = await this.db
      .update(workflowRuns)
      .set({ ...patch, updated_at: new Date() })
      .where(this.mine(id))
      .returning();
    return row ?? null;
  }

  /** Moves a run from one status to another; null when it was not in `from` (someone else did). */
  async transition(
    id: string,
    from: WorkflowRunRow['status'],
    patch: WorkflowRunPatch,
  ): Promise<WorkflowRunRow | null> {
    const [row] = await this.db
      .update(workflowRuns)
      .set({ ...patch, updated_at: new Date() })
      .where(and(this.mine(id), eq(workflowRuns.status, from)))
      .returning();
    return row ?? null;
  }

  /** Whether the running step should stop: a cancel was asked for, or the run ended elsewhere. */
  async cancelRequested(id: string): Promise<boolean> {
    const [row] = await this.db
      .select({ cancel: workflowRuns.cancel_requested, status: workflowRuns.status })
      .from(workflowRuns)
      .where(this.mine(id));
    return row ? row.cancel || row.status !== 'running' : true;
  }
}

/**
 * Runs left `running` by an instance that is gone (ADR 018), of any user, each moved by `end`
 * (to failed) in one transaction. Rows another sweep holds are skipped and rows it has ended no
 * longer match, so two sweeps at once never both end a run. Answers the runs as they were.
 */
export const endAbandonedWorkflowRuns = (
  db: Db,
  end: (row: WorkflowRunRow) => WorkflowRunPatch,
): Promise<WorkflowRunRow[]> =>
  db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(workflowRuns)
      .where(and(eq(workflowRuns.status, 'running'), ownerGone(workflowRuns.instance_id)))
      .orderBy(workflowRuns.id)
      .limit(100)
      .for('update', { skipLocked: true });
    for (const row of rows) {
      await tx
        .update(workflowRuns)
        .set({ ...end(row), updated_at: new Date() })
        .where(eq(workflowRuns.id, row.id));
    }
    return rows;
  });
