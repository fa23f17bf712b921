import { and, asc, count, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { ScheduleTarget } from '@chorus/shared/api/schedules';
import { messageFor } from '@chorus/shared/error-catalogue';
import type { Db } from '../client.ts';
import type { KeysetCursor } from '../keyset-cursor.ts';
import { scheduleRuns, schedules, users } from '../schema/index.ts';
import { ownerGone } from './instances.ts';

export type ScheduleRow = Omit<typeof schedules.$inferSelect, 'target'> & {
  target: ScheduleTarget;
};
export type ScheduleRunRow = typeof scheduleRuns.$inferSelect;
export type ScheduleRunTrigger = ScheduleRunRow['trigger'];

/** What a user sets on a schedule. */
export type ScheduleFields = Pick<
  ScheduleRow,
  | 'name'
  | 'target'
  | 'cron'
  | 'time_zone'
  | 'missed'
  | 'email_started'
  | 'email_completed'
  | 'email_failed'
>;

const asRow = (row: typeof schedules.$inferSelect): ScheduleRow => row as ScheduleRow;

/** How a finished occurrence is stored. */
export type RunOutcome = Pick<
  ScheduleRunRow,
  | 'status'
  | 'output_text'
  | 'input_tokens'
  | 'output_tokens'
  | 'cost_usd'
  | 'error_code'
  | 'error_message'
  | 'workflow_run_id'
>;

/**
 * A user's schedules and their occurrences (issue 19). Every query carries the user: another
 * user's schedule is simply not there.
 */
export class SchedulesRepository {
  constructor(
    private readonly db: Db,
    readonly userId: string,
  ) {}

  private own(id: string) {
    return and(eq(schedules.id, id), eq(schedules.user_id, this.userId));
  }

  async list(): Promise<ScheduleRow[]> {
    const rows = await this.db
      .select()
      .from(schedules)
      .where(eq(schedules.user_id, this.userId))
      .orderBy(desc(schedules.created_at), desc(schedules.id));
    return rows.map(asRow);
  }

  async count(): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(schedules)
      .where(eq(schedules.user_id, this.userId));
    return Number(row?.n ?? 0);
  }

  async get(id: string): Promise<ScheduleRow | undefined> {
    const [row] = await this.db.select().from(schedules).where(this.own(id)).limit(1);
    return row && asRow(row);
  }

  async create(fields: ScheduleFields & { next_run_at: Date | null }): Promise<ScheduleRow> {
    const [row] = await this.db
      .insert(schedules)
      .values({ ...fields, user_id: this.userId })
      .returning();
    return asRow(row!);
  }

  async update(
    id: string,
    patch: Partial<
      ScheduleFields &
        Pick<ScheduleRow, 'enabled' | 'disabled_reason' | 'consecutive_failures' | 'next_run_at'>
    >,
  ): Promise<ScheduleRow | undefined> {
    const [row] = await this.db
      .update(schedules)
      .set({ ...patch, updated_at: new Date() })
      .where(this.own(id))
      .returning();
    return row && asRow(row);
  }

  async remove(id: string): Promise<boolean> {
    const rows = await this.db
      .delete(schedules)
      .where(this.own(id))
      .returning({ id: schedules.id });
    return rows.length > 0;
  }

  /** The newest occurrence of each schedule given. */
  async lastRuns(scheduleIds: string[]): Promise<Map<string, ScheduleRunRow>> {
    if (scheduleIds.length === 0) return new Map();
    const rows = await this.db
      .selectDistinctOn([scheduleRuns.schedule_id])
      .from(scheduleRuns)
      .where(
        and(eq(scheduleRuns.user_id, this.userId), inArray(scheduleRuns.schedule_id, scheduleIds)),
      )
      .orderBy(scheduleRuns.schedule_id, desc(scheduleRuns.started_at), desc(scheduleRuns.id));
    return new Map(rows.map((row) => [row.schedule_id, row]));
  }

  /** A schedule's occurrences, newest first, after a keyset position (`created_at` = started). */
  async runs(
    scheduleId: string,
    opts: { limit: number; after?: KeysetCursor | null },
  ): Promise<ScheduleRunRow[]> {
    const after = opts.after;
    return this.db
      .select()
      .from(scheduleRuns)
      .where(
        and(
          eq(scheduleRuns.user_id, this.userId),
          eq(scheduleRuns.schedule_id, scheduleId),
          after
            ? or(
                sql`${scheduleRuns.started_at} < ${after.created_at}`,
                and(
                  sql`${scheduleRuns.started_at} = ${after.created_at}`,
                  sql`${scheduleRuns.id} < ${after.id}`,
                ),
              )
            : undefined,
        ),
      )
      .orderBy(desc(scheduleRuns.started_at), desc(scheduleRuns.id))
      .limit(opts.limit);
  }
}

/**
 * Claims one occurrence: the unique (schedule, occurrence) pair lets exactly one insert land,
 * whatever the number of instances trying. Null when another claim got there first.
 */
export const claimOccurrence = async (
  db: Db,
  claim: {
    scheduleId: string;
    userId: string;
    occurrenceAt: Date;
    trigger: ScheduleRunTrigger;
    /** `skipped` records a missed occurrence that will not run. */
    status?: 'running' | 'skipped';
    /**
     * The tick's claim: only while the schedule is still enabled and still due at this
     * `next_run_at`. The schedule's row is locked meanwhile, so a pause either lands before the
     * claim (nothing runs) or waits for it.
     */
    whileDueAt?: Date;
    /** The claiming instance: it owns the occurrence until a worker takes it (ADR 018). */
    instanceId: string;
  },
): Promise<ScheduleRunRow | null> =>
  db.transaction(async (tx) => {
    if (claim.whileDueAt) {
      const [due] = await tx
        .select({ id: schedules.id })
        .from(schedules)
        .where(
          and(
            eq(schedules.id, claim.scheduleId),
            eq(schedules.enabled, true),
            eq(schedules.next_run_at, claim.whileDueAt),
          ),
        )
        .for('update');
      if (!due) return null;
    }
    const skipped = claim.status === 'skipped';
    const [row] = await tx
      .insert(scheduleRuns)
      .values({
        schedule_id: claim.scheduleId,
        user_id: claim.userId,
        occurrence_at: claim.occurrenceAt,
        trigger: claim.trigger,
        status: claim.status ?? 'running',
        ...(skipped ? { finished_at: new Date() } : { instance_id: claim.instanceId }),
      })
      .onConflictDoNothing({ target: [scheduleRuns.schedule_id, scheduleRuns.occurrence_at] })
      .returning();
    return row ?? null;
  });

/** Enabled schedules whose next occurrence is due, oldest first. */
export const dueSchedules = async (db: Db, now: Date, limit: number): Promise<ScheduleRow[]> => {
  const rows = await db
    .select()
    .from(schedules)
    .where(and(eq(schedules.enabled, true), lte(schedules.next_run_at, now)))
    .orderBy(asc(schedules.next_run_at))
    .limit(limit);
  return rows.map(asRow);
};

/**
 * Moves a schedule on to its next occurrence, only if no other instance did since it was read
 * (compare and set on `next_run_at`): false when another got there first.
 */
export const advanceSchedule = async (
  db: Db,
  id: string,
  seen: Date,
  next: Date | null,
): Promise<boolean> => {
  const rows = await db
    .update(schedules)
    .set({ next_run_at: next })
    .where(and(eq(schedules.id, id), eq(schedules.next_run_at, seen), eq(schedules.enabled, true)))
    .returning({ id: schedules.id });
  return rows.length > 0;
};

/** An occurrence with its schedule and the owner's address, for the job that runs it. */
export const runForJob = async (
  db: Db,
  runId: string,
  userId: string,
): Promise<{ run: ScheduleRunRow; schedule: ScheduleRow; email: string } | null> => {
  const [row] = await db
    .select({ run: scheduleRuns, schedule: schedules, email: users.email })
    .from(scheduleRuns)
    .innerJoin(schedules, eq(schedules.id, scheduleRuns.schedule_id))
    .innerJoin(users, eq(users.id, schedules.user_id))
    .where(
      and(
        eq(scheduleRuns.id, runId),
        eq(scheduleRuns.user_id, userId),
        eq(schedules.user_id, userId),
      ),
    )
    .limit(1);
  return row ? { run: row.run, schedule: asRow(row.schedule), email: row.email } : null;
};

/**
 * The worker's claim on an occurrence: it becomes this instance's, taken over from the instance
 * that claimed it. False when it has ended already (a second delivery, or the sweep failed it).
 */
export const takeOccurrence = async (
  db: Db,
  runId: string,
  instanceId: string,
): Promise<boolean> => {
  const rows = await db
    .update(scheduleRuns)
    .set({ instance_id: instanceId })
    .where(and(eq(scheduleRuns.id, runId), eq(scheduleRuns.status, 'running')))
    .returning({ id: scheduleRuns.id });
  return rows.length > 0;
};

/**
 * Occurrences left `running` by an instance that is gone (ADR 018) — claimed but not yet queued,
 * or cut off mid-run — fail with a plain reason. They are not counted against the schedule (its
 * target did not fail) nor run again (it may have called the model already); the next occurrence
 * runs as usual. One statement, so two sweeps never both end one.
 */
export const failAbandonedOccurrences = async (db: Db): Promise<string[]> => {
  const rows = await db
    .update(scheduleRuns)
    .set({
      status: 'failed',
      error_code: 'schedules:interrupted',
      error_message: messageFor('schedules:interrupted'),
      finished_at: new Date(),
    })
    .where(and(eq(scheduleRuns.status, 'running'), ownerGone(scheduleRuns.instance_id)))
    .returning({ id: scheduleRuns.id });
  return rows.map((r) => r.id);
};

/** Stores how an occurrence ended, once: false when it had ended already. */
export const finishRun = async (db: Db, runId: string, outcome: RunOutcome): Promise<boolean> => {
  const rows = await db
    .update(scheduleRuns)
    .set({ ...outcome, finished_at: new Date() })
    .where(and(eq(scheduleRuns.id, runId), eq(scheduleRuns.status, 'running')))
    .returning({ id: scheduleRuns.id });
  return rows.length > 0;
};

/**
 * Counts a failure (or clears the count after a success) and disables the schedule once it
 * reaches `disableAfter`. Answers the schedule as it is now.
 */
export const recordOutcome = async (
  db: Db,
  scheduleId: string,
  outcome: { failed: boolean; disableAfter: number; reason: string },
): Promise<{ failures: number; disabledNow: boolean }> => {
  if (!outcome.failed) {
    await db.update(schedules).set({ consecutive_failures: 0 }).where(eq(schedules.id, scheduleId));
    return { failures: 0, disabledNow: false };
  }
  const [row] = await db
    .update(schedules)
    .set({ consecutive_failures: sql`${schedules.consecutive_failures} + 1` })
    .where(eq(schedules.id, scheduleId))
    .returning({ failures: schedules.consecutive_failures, enabled: schedules.enabled });
  const failures = row?.failures ?? 0;
  if (!row || !row.enabled || failures < outcome.disableAfter) {
    return { failures, disabledNow: false };
  }
  // Only the update that turns it off tells the user, so one mail goes out.
  const disabled = await db
    .update(schedules)
    .set({ enabled: false, disabled_reason: outcome.reason, next_run_at: null })
    .where(and(eq(schedules.id, scheduleId), eq(schedules.enabled, true)))
    .returning({ id: schedules.id });
  return { failures, disabledNow: disabled.length > 0 };
};
