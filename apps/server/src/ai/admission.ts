import { sql } from 'drizzle-orm';
import type { RateLimitWindow } from '@chorus/shared/limits';
import { messageFor } from '@chorus/shared/error-catalogue';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { rowsOf, type Db } from '../db/client.ts';
import { FREE_PLAN_NAME, findFreePlan } from '../db/repositories/plans.ts';
import { ApiError } from '../http/errors.ts';
import { quotaExceededMessage, utcDate } from '../quota/quota.ts';

export type AdmissionRequest = {
  userId: string;
  provider: ProviderId;
  model: string;
  /** Prompts to count against today's quota; 0 counts none (the plan is still checked). */
  prompts: number;
  /**
   * A rate-limit window to spend one point of, in the `rate_limits` table that every instance
   * shares (the same rows rate-limiter-flexible keeps for the HTTP middleware); null for work
   * that is not a request (a job that was admitted when it was started).
   */
  rateLimit: { key: string; window: RateLimitWindow; operation: string } | null;
  now?: Date;
};

export type Admission = {
  /** Gives back the prompts counted, when the call will not be made after all. */
  refund(): Promise<void>;
};

type AdmissionRow = {
  rl_points: number | string | bigint | null;
  rl_expire: number | string | bigint | null;
  plan_name: string | null;
  daily_prompt_limit: number | null;
  provider_ok: boolean | null;
  model_ok: boolean | null;
  counted: number | null;
};

const toNumber = (v: number | string | bigint | null) => (v === null ? null : Number(v));

/**
 * The rate limit, the plan's allowed providers and models, and the daily quota, in ONE database
 * round trip (ARCHITECTURE §11 fast path). Nothing is counted unless everything passes: a
 * rate-limited or refused call costs no prompt, and the provider is called only after this
 * resolves, so a refused request never spends anyone's key.
 *
 * The rate-limit upsert mirrors rate-limiter-flexible's Postgres store: a new window starts when
 * the row expired; the point that crosses the limit moves the expiry to now + block.
 */
export const admit = async (db: Db, req: AdmissionRequest): Promise<Admission> => {
  const now = req.now ?? new Date();
  const nowMs = now.getTime();
  const date = utcDate(now);
  const rl = req.rateLimit;
  const rateLimitCte = rl
    ? sql`rl as (
        insert into rate_limits as r (key, points, expire)
        values (${rl.key}, 1, ${nowMs + rl.window.windowSeconds * 1000})
        on conflict (key) do update set
          points = case when r.expire <= ${nowMs} then 1 else r.points + 1 end,
          expire = case
            when r.expire <= ${nowMs} then ${nowMs + rl.window.windowSeconds * 1000}::bigint
            when r.points + 1 > ${rl.window.points} and r.points <= ${rl.window.points}
              then ${nowMs + rl.window.blockSeconds * 1000}::bigint
            else r.expire end
        returning points, expire
      )`
    : sql`rl as (select null::int as points, null::bigint as expire)`;
  const underLimit = rl ? sql`(select points from rl) <= ${rl.window.points}` : sql`true`;
  const result = await db.execute(sql`
    with ${rateLimitCte},
    plan as (
      select p.name, p.daily_prompt_limit, p.allowed_providers, p.allowed_models
      from profiles pr join pricing_plans p on p.id = pr.plan_id
      where pr.id = ${req.userId}
      union all
      select p.name, p.daily_prompt_limit, p.allowed_providers, p.allowed_models
      from pricing_plans p
      where p.name = ${FREE_PLAN_NAME}
        and not exists (
          select 1 from profiles pr join pricing_plans pp on pp.id = pr.plan_id
          where pr.id = ${req.userId}
        )
      limit 1
    ),
    checked as (
      select name, daily_prompt_limit,
        (jsonb_array_length(allowed_providers) = 0
          or allowed_providers @> to_jsonb(${req.provider}::text)) as provider_ok,
        (jsonb_array_length(allowed_models) = 0
          or allowed_models @> to_jsonb(${req.model}::text)) as model_ok
      from plan
    ),
    q as (
      insert into prompt_usage as u (user_id, date, count)
      select ${req.userId}, ${date}, ${req.prompts} from checked
      where ${req.prompts} > 0 and ${underLimit} and provider_ok and model_ok
        and (daily_prompt_limit is null or daily_prompt_limit >= ${req.prompts})
      on conflict (user_id, date) do update set count = u.count + ${req.prompts}
        where (select daily_prompt_limit from checked) is null
          or u.count + ${req.prompts} <= (select daily_prompt_limit from checked)
      returning count
    )
    select (select points from rl) as rl_points, (select expire from rl) as rl_expire,
      c.name as plan_name, c.daily_prompt_limit, c.provider_ok, c.model_ok,
      (select count from q) as counted
    from (select 1) as one left join checked c on true
  `);
  const row = rowsOf<AdmissionRow>(result)[0];
  if (!row || row.plan_name === null) {
    // No Free plan row: an operator deleted it by hand. Recreate it and ask again.
    await findFreePlan(db);
    return admit(db, { ...req, rateLimit: null, now });
  }

  const points = toNumber(row.rl_points);
  if (rl && points !== null && points > rl.window.points) {
    const expire = toNumber(row.rl_expire) ?? nowMs;
    const seconds = Math.max(1, Math.ceil((expire - nowMs) / 1000));
    throw new ApiError(
      429,
      'rate_limit:exceeded',
      messageFor('rate_limit:exceeded', { operation: rl.operation, seconds }),
      { 'Retry-After': String(seconds) },
    );
  }
  const planName = row.plan_name;
  if (!row.provider_ok) {
    throw new ApiError(
      403,
      'quota:provider_not_allowed',
      messageFor('quota:provider_not_allowed', {
        provider: providers[req.provider].name,
        plan: planName,
      }),
    );
  }
  if (!row.model_ok) {
    throw new ApiError(
      403,
      'quota:model_not_allowed',
      messageFor('quota:model_not_allowed', { model: req.model, plan: planName }),
    );
  }
  if (req.prompts > 0 && row.counted === null) {
    throw new ApiError(
      403,
      'quota:exceeded',
      quotaExceededMessage(row.daily_prompt_limit ?? 0, planName, now),
    );
  }

  let refunded = req.prompts === 0;
  return {
    async refund() {
      if (refunded) return;
      refunded = true;
      await db.execute(sql`
        update prompt_usage set count = greatest(0, count - ${req.prompts})
        where user_id = ${req.userId} and date = ${date}
      `);
    },
  };
};
