import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPricingPlan } from '@chorus/shared/api/plans';
import type { Schedule } from '@chorus/shared/api/schedules';
import { scheduleLimits } from '@chorus/shared/api/schedules';
import { messageFor } from '@chorus/shared/error-catalogue';
import { pricingPlans, schedules } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { signUpAdminTrio, type TestUser } from '../admin/test-users.ts';

type Refusal = { error: string; code: string };

let t: TestApp;
let admin: TestUser;
let plain: TestUser;
let promptId: string;

/** Yearly: never too frequent for any plan, never reached by a tick during a test. */
const RARELY = '0 9 1 1 *';

const post = (who: TestUser, cron: string, name = 'Digest') =>
  who.post<Schedule & Refusal>('/rest/v1/schedules', {
    name,
    cron,
    target: { kind: 'prompt', prompt_id: promptId, provider: 'openai' },
  });

const setLimits = async (
  id: string,
  limits: { max_schedules?: number | null; min_schedule_interval_minutes?: number | null },
) => {
  const res = await admin.patch<AdminPricingPlan>(`/rest/v1/admin/pricing-plans/${id}`, limits);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

beforeAll(async () => {
  t = await startTestApp();
  ({ admin, plain } = await signUpAdminTrio(t, 'schedule-plans'));
  const prompt = await plain.post<{ id: string }>('/rest/v1/prompts', {
    title: 'Tide report',
    content: 'Tell me about the tides.',
  });
  expect(prompt.status).toBe(201);
  promptId = prompt.body.id;
});
afterAll(() => t.close());

describe("a plan's schedule limits", () => {
  it('are null on Free, the instance defaults', async () => {
    const free = (
      await admin.get<{ plans: AdminPricingPlan[] }>('/rest/v1/admin/pricing-plans')
    ).body.plans.find((p) => p.name === 'Free');
    expect(free).toMatchObject({ max_schedules: null, min_schedule_interval_minutes: null });
  });

  it('bound what a user on the plan may schedule, and how often it may run', async () => {
    const created = await admin.post<AdminPricingPlan>('/rest/v1/admin/pricing-plans', {
      name: 'Hourly',
      max_schedules: 1,
      min_schedule_interval_minutes: 60,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ max_schedules: 1, min_schedule_interval_minutes: 60 });
    const plan = created.body;
    expect(
      (await admin.patch(`/rest/v1/admin/users/${plain.id}`, { plan_id: plan.id })).status,
    ).toBe(200);

    const tooOften = messageFor('schedules:too_frequent', { minutes: 60, plan: 'Hourly' });
    const everyMinute = await post(plain, '* * * * *');
    expect(everyMinute.status).toBe(400);
    expect(everyMinute.body).toEqual({ code: 'schedules:too_frequent', error: tooOften });
    expect(tooOften).toContain('60 minutes');
    // The preview says so as the expression is typed.
    const preview = await plain.get<Refusal>(
      '/rest/v1/schedules/preview?cron=*/30%20*%20*%20*%20*&time_zone=Europe/Berlin',
    );
    expect(preview.status).toBe(400);
    expect(preview.body.code).toBe('schedules:too_frequent');

    const hourly = await post(plain, '0 * * * *');
    expect(hourly.status, JSON.stringify(hourly.body)).toBe(201);

    const second = await post(plain, RARELY, 'Second');
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      code: 'schedules:too_many',
      error: messageFor('schedules:too_many', { max: 1, plan: 'Hourly' }),
    });
    expect(second.body.error).toContain('Hourly plan keeps at most one schedule');

    // A change of expression meets the minimum too; other changes do not check it.
    const faster = await plain.patch<Refusal>(`/rest/v1/schedules/${hourly.body.id}`, {
      cron: '*/30 * * * *',
    });
    expect(faster.status).toBe(400);
    expect(faster.body).toEqual({ code: 'schedules:too_frequent', error: tooOften });
    const slower = await plain.patch<Schedule>(`/rest/v1/schedules/${hourly.body.id}`, {
      cron: '0 */2 * * *',
    });
    expect(slower.status).toBe(200);
    expect(slower.body.cron).toBe('0 */2 * * *');
    expect(
      (await plain.patch(`/rest/v1/schedules/${hourly.body.id}`, { name: 'Renamed' })).status,
    ).toBe(200);
  });

  it('keeps the schedules of a plan that shrinks, but resumes a paused one only within it', async () => {
    const [plan] = await t.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Hourly'));
    const [own] = await t.db.select().from(schedules).where(eq(schedules.user_id, plain.id));
    expect(own).toBeDefined();

    // No schedules at all, and none more often than every three hours.
    await setLimits(plan!.id, { max_schedules: 0, min_schedule_interval_minutes: 180 });
    const kept = await plain.get<Schedule>(`/rest/v1/schedules/${own!.id}`);
    expect(kept.status).toBe(200);
    expect(kept.body.enabled).toBe(true);
    expect((await plain.post(`/rest/v1/schedules/${own!.id}/pause`)).status).toBe(200);

    const overCount = await plain.post<Refusal>(`/rest/v1/schedules/${own!.id}/resume`);
    expect(overCount.status).toBe(409);
    expect(overCount.body).toEqual({
      code: 'schedules:too_many',
      error: messageFor('schedules:too_many', { max: 0, plan: 'Hourly' }),
    });

    await setLimits(plan!.id, { max_schedules: 1 });
    const tooOften = await plain.post<Refusal>(`/rest/v1/schedules/${own!.id}/resume`);
    expect(tooOften.status).toBe(400);
    expect(tooOften.body).toEqual({
      code: 'schedules:too_frequent',
      error: messageFor('schedules:too_frequent', { minutes: 180, plan: 'Hourly' }),
    });
    expect((await plain.get<Schedule>(`/rest/v1/schedules/${own!.id}`)).body.enabled).toBe(false);

    await setLimits(plan!.id, { min_schedule_interval_minutes: 120 });
    const resumed = await plain.post<Schedule>(`/rest/v1/schedules/${own!.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.enabled).toBe(true);
  });

  it('falls back to the instance defaults when set to null', async () => {
    const [plan] = await t.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Hourly'));
    const cleared = await setLimits(plan!.id, {
      max_schedules: null,
      min_schedule_interval_minutes: null,
    });
    expect(cleared).toMatchObject({ max_schedules: null, min_schedule_interval_minutes: null });

    // The default shortest interval is one minute.
    expect((await post(plain, '* * * * *', 'Every minute')).status).toBe(201);
    const have = (await plain.get<{ schedules: Schedule[] }>('/rest/v1/schedules')).body.schedules
      .length;
    for (let i = have; i < scheduleLimits.perUser; i += 1) {
      expect((await post(plain, RARELY, `Yearly ${i}`)).status).toBe(201);
    }
    const past = await post(plain, RARELY, 'One too many');
    expect(past.status).toBe(409);
    expect(past.body).toEqual({
      code: 'schedules:too_many',
      error: messageFor('schedules:too_many', { max: scheduleLimits.perUser, plan: 'Hourly' }),
    });
  });

  it('are changed by admins only', async () => {
    const [plan] = await t.db.select().from(pricingPlans).where(eq(pricingPlans.name, 'Hourly'));
    const res = await plain.patch(`/rest/v1/admin/pricing-plans/${plan!.id}`, {
      max_schedules: 1000,
      min_schedule_interval_minutes: 1,
    });
    expect(res.status).toBe(403);
    const [after] = await t.db.select().from(pricingPlans).where(eq(pricingPlans.id, plan!.id));
    expect(after).toMatchObject({ max_schedules: null, min_schedule_interval_minutes: null });
    expect(
      (
        await plain.post('/rest/v1/admin/pricing-plans', {
          name: 'Mine',
          max_schedules: 1000,
        })
      ).status,
    ).toBe(403);
  });
});
