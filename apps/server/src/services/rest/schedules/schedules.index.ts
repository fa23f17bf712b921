import type { Schedule, ScheduleRun, ScheduleTarget } from '@chorus/shared/api/schedules';
import { scheduleLimits } from '@chorus/shared/api/schedules';
import { messageFor } from '@chorus/shared/error-catalogue';
import { decodeCursor, encodeCursor } from '../../../db/keyset-cursor.ts';
import type { PlanRow } from '../../../db/repositories/plans.ts';
import { findPlanForUser } from '../../../db/repositories/pricing-plans.ts';
import {
  SchedulesRepository,
  type ScheduleRow,
  type ScheduleRunRow,
} from '../../../db/repositories/schedules.ts';
import type { AuthedEnv, Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import { withinUserLimit } from '../../../quota/user-limits.ts';
import {
  checkSchedule,
  describeCron,
  nextOccurrence,
  occurrencesAfter,
  parseCron,
  previewSchedule,
} from '../../../schedules/cron.ts';
import { runNow } from '../../../schedules/occurrences.ts';
import { findTargetName, findTargetNames, targetNotFound } from '../../../schedules/targets.ts';
import {
  createScheduleRoute,
  deleteScheduleRoute,
  getScheduleRoute,
  listScheduleRunsRoute,
  listSchedulesRoute,
  pauseScheduleRoute,
  previewScheduleRoute,
  resumeScheduleRoute,
  runScheduleNowRoute,
  updateScheduleRoute,
} from './schedules.routes.ts';

export const scheduleNotFound = () => new ApiError(404, 'schedules:not_found');

/** What a schedule whose target was deleted since shows in place of its name. */
const GONE = 'Deleted';

export const toScheduleRun = (row: ScheduleRunRow): ScheduleRun => ({
  id: row.id,
  schedule_id: row.schedule_id,
  occurrence_at: row.occurrence_at.toISOString(),
  trigger: row.trigger,
  status: row.status,
  output_text: row.output_text,
  input_tokens: row.input_tokens,
  output_tokens: row.output_tokens,
  cost_usd: row.cost_usd,
  error:
    row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? '' },
  workflow_run_id: row.workflow_run_id,
  started_at: row.started_at.toISOString(),
  finished_at: row.finished_at?.toISOString() ?? null,
});

/** The next five occurrences: the stored next one first (it may be due already), then after it. */
const nextRuns = (row: ScheduleRow): string[] => {
  if (!row.enabled || !row.next_run_at) return [];
  try {
    const cron = parseCron(row.cron, row.time_zone);
    return [row.next_run_at, ...occurrencesAfter(cron, row.next_run_at, 4)].map((d) =>
      d.toISOString(),
    );
  } catch {
    return [row.next_run_at.toISOString()];
  }
};

const toSchedule = (
  row: ScheduleRow,
  targetName: string | null,
  lastRun: ScheduleRunRow | undefined,
): Schedule => ({
  id: row.id,
  name: row.name,
  target: row.target,
  target_name: targetName ?? GONE,
  cron: row.cron,
  time_zone: row.time_zone,
  description: describeCron(row.cron),
  missed: row.missed,
  email_started: row.email_started,
  email_completed: row.email_completed,
  email_failed: row.email_failed,
  enabled: row.enabled,
  disabled_reason: row.disabled_reason,
  consecutive_failures: row.consecutive_failures,
  next_runs: nextRuns(row),
  last_run: lastRun ? toScheduleRun(lastRun) : null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const present = async (deps: Deps, repo: SchedulesRepository, row: ScheduleRow) => {
  const [name, last] = await Promise.all([
    findTargetName(deps, repo.userId, row.target),
    repo.lastRuns([row.id]),
  ]);
  return toSchedule(row, name, last.get(row.id));
};

/** The schedule limits of a user's plan, its nulls read as the instance defaults. */
export type ScheduleLimits = { plan: string; maxSchedules: number; minIntervalMinutes: number };

export const scheduleLimitsOf = (plan: PlanRow): ScheduleLimits => ({
  plan: plan.name,
  maxSchedules: plan.max_schedules ?? scheduleLimits.perUser,
  minIntervalMinutes: plan.min_schedule_interval_minutes ?? scheduleLimits.minIntervalMinutes,
});

const limitsFor = async (deps: Deps, userId: string) =>
  scheduleLimitsOf(await findPlanForUser(deps.database.db, userId));

/** Expression and zone checked against the plan's shortest interval (a 400 otherwise). */
const checkAgainstPlan = (expression: string, zone: string, limits: ScheduleLimits, now: Date) =>
  checkSchedule(expression, zone, {
    now,
    minIntervalMinutes: limits.minIntervalMinutes,
    plan: limits.plan,
  });

const tooMany = (limits: ScheduleLimits) =>
  new ApiError(
    409,
    'schedules:too_many',
    messageFor('schedules:too_many', { max: limits.maxSchedules, plan: limits.plan }),
  );

/** The target must be the user's own: a 404 with its kind's code otherwise. */
const checkTarget = async (deps: Deps, userId: string, target: ScheduleTarget) => {
  if ((await findTargetName(deps, userId, target)) === null) throw targetNotFound(target);
};

const owned = async (repo: SchedulesRepository, id: string): Promise<ScheduleRow> => {
  if (!isUuid(id)) throw scheduleNotFound();
  const row = await repo.get(id);
  if (!row) throw scheduleNotFound();
  return row;
};

const positionOf = (cursor: string | undefined) => {
  if (cursor === undefined) return undefined;
  const after = decodeCursor(cursor);
  if (!after) throw new ApiError(400, 'schedules:bad_cursor');
  return after;
};

export const schedulesRouter = createRouter<AuthedEnv>()
  .openapi(listSchedulesRoute, async (c) => {
    const { deps, user } = c.var;
    const repo = new SchedulesRepository(deps.database.db, user.id);
    const rows = await repo.list();
    const [last, names] = await Promise.all([
      repo.lastRuns(rows.map((r) => r.id)),
      findTargetNames(
        deps,
        user.id,
        rows.map((r) => r.target),
      ),
    ]);
    return c.json(
      { schedules: rows.map((row, i) => toSchedule(row, names[i] ?? null, last.get(row.id))) },
      200,
    );
  })
  .openapi(previewScheduleRoute, async (c) => {
    const { cron, time_zone } = c.req.valid('query');
    const limits = await limitsFor(c.var.deps, c.var.user.id);
    return c.json(
      previewSchedule(cron, time_zone, new Date(), {
        minIntervalMinutes: limits.minIntervalMinutes,
        plan: limits.plan,
      }),
      200,
    );
  })
  .openapi(createScheduleRoute, async (c) => {
    const { deps, user } = c.var;
    const body = c.req.valid('json');
    const now = new Date();
    const limits = await limitsFor(deps, user.id);
    const cron = checkAgainstPlan(body.cron, body.time_zone, limits, now);
    await checkTarget(deps, user.id, body.target);
    const repo = new SchedulesRepository(deps.database.db, user.id);
    // Counted and stored under the user's lock: two saves at once cannot both take the last place.
    const row = await withinUserLimit(deps.database.db, 'schedules', user.id, async (tx) => {
      const own = new SchedulesRepository(tx, user.id);
      if ((await own.count()) >= limits.maxSchedules) throw tooMany(limits);
      return own.create({ ...body, next_run_at: nextOccurrence(cron, now) });
    });
    return c.json(await present(deps, repo, row), 201);
  })
  .openapi(getScheduleRoute, async (c) => {
    const repo = new SchedulesRepository(c.var.deps.database.db, c.var.user.id);
    const row = await owned(repo, c.req.valid('param').id);
    return c.json(await present(c.var.deps, repo, row), 200);
  })
  .openapi(updateScheduleRoute, async (c) => {
    const { deps, user } = c.var;
    const repo = new SchedulesRepository(deps.database.db, user.id);
    const current = await owned(repo, c.req.valid('param').id);
    const body = c.req.valid('json');
    const expression = body.cron ?? current.cron;
    const zone = body.time_zone ?? current.time_zone;
    const moved = expression !== current.cron || zone !== current.time_zone;
    // A new expression or zone meets the plan's shortest interval; an unchanged one may keep an
    // interval an older, looser plan allowed.
    const cron = moved
      ? checkAgainstPlan(expression, zone, await limitsFor(deps, user.id), new Date())
      : null;
    if (body.target) await checkTarget(deps, user.id, body.target);
    const row = await repo.update(current.id, {
      ...body,
      ...(cron && current.enabled && { next_run_at: nextOccurrence(cron, new Date()) }),
    });
    if (!row) throw scheduleNotFound();
    return c.json(await present(deps, repo, row), 200);
  })
  .openapi(deleteScheduleRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw scheduleNotFound();
    const repo = new SchedulesRepository(c.var.deps.database.db, c.var.user.id);
    if (!(await repo.remove(id))) throw scheduleNotFound();
    return c.body(null, 204);
  })
  .openapi(listScheduleRunsRoute, async (c) => {
    const repo = new SchedulesRepository(c.var.deps.database.db, c.var.user.id);
    const { limit, cursor } = c.req.valid('query');
    const after = positionOf(cursor);
    const schedule = await owned(repo, c.req.valid('param').id);
    const rows = await repo.runs(schedule.id, { limit: limit + 1, after });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return c.json(
      {
        runs: page.map(toScheduleRun),
        next_cursor:
          rows.length > limit && last
            ? encodeCursor({ created_at: last.started_at, id: last.id })
            : null,
      },
      200,
    );
  })
  .openapi(runScheduleNowRoute, async (c) => {
    const { deps, user } = c.var;
    const repo = new SchedulesRepository(deps.database.db, user.id);
    const schedule = await owned(repo, c.req.valid('param').id);
    if (!deps.jobs.running) throw new ApiError(503, 'jobs:unavailable');
    const run = await runNow(deps, schedule);
    return c.json(toScheduleRun(run), 202);
  })
  .openapi(pauseScheduleRoute, async (c) => {
    const { deps, user } = c.var;
    const repo = new SchedulesRepository(deps.database.db, user.id);
    const schedule = await owned(repo, c.req.valid('param').id);
    const row = await repo.update(schedule.id, { enabled: false, next_run_at: null });
    if (!row) throw scheduleNotFound();
    return c.json(await present(deps, repo, row), 200);
  })
  .openapi(resumeScheduleRoute, async (c) => {
    const { deps, user } = c.var;
    const repo = new SchedulesRepository(deps.database.db, user.id);
    const schedule = await owned(repo, c.req.valid('param').id);
    const now = new Date();
    let cron = parseCron(schedule.cron, schedule.time_zone);
    if (!schedule.enabled) {
      // A plan that shrank keeps the schedules it finds, but a paused one runs again only within
      // its limits: no more schedules than it keeps, none more often than its shortest interval.
      const limits = await limitsFor(deps, user.id);
      if ((await repo.count()) > limits.maxSchedules) throw tooMany(limits);
      cron = checkAgainstPlan(schedule.cron, schedule.time_zone, limits, now);
    }
    const row = await repo.update(schedule.id, {
      enabled: true,
      disabled_reason: null,
      consecutive_failures: 0,
      next_run_at: nextOccurrence(cron, now),
    });
    if (!row) throw scheduleNotFound();
    return c.json(await present(deps, repo, row), 200);
  });
