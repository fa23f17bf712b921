import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorageUsage } from '@chorus/shared/api/files';
import type { AdminPricingPlan, AdminPricingPlansResponse } from '@chorus/shared/api/plans';
import { fileLimitDefaults, MB } from '@chorus/shared/limits';
import type { Profile } from '@chorus/shared/api/profile';
import { planMessages } from '@chorus/shared/messages';
import { adminAuditLogs, pricingPlans, profiles } from '../../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;
let plain: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('root@example.com');
  plain = await t.user('plain@example.com');
});
afterAll(() => t.close());

const auditFor = (recordId: string) =>
  t.db
    .select()
    .from(adminAuditLogs)
    .where(eq(adminAuditLogs.record_id, recordId))
    .orderBy(desc(adminAuditLogs.created_at));

const freePlan = async () =>
  (await admin.get<AdminPricingPlansResponse>('/rest/v1/admin/pricing-plans')).body.plans.find(
    (p) => p.name === 'Free',
  )!;

describe('/rest/v1/admin/pricing-plans', () => {
  it('refuses guests with 401 and plain users with 403 on every route, changing nothing', async () => {
    const free = await freePlan();
    const guest = t.client();
    const calls = [
      ['GET', '/rest/v1/admin/pricing-plans', undefined],
      ['POST', '/rest/v1/admin/pricing-plans', { name: 'Sneaky' }],
      ['PATCH', `/rest/v1/admin/pricing-plans/${free.id}`, { daily_prompt_limit: 0 }],
      ['DELETE', `/rest/v1/admin/pricing-plans/${free.id}`, undefined],
    ] as const;
    for (const [method, url, body] of calls) {
      expect((await guest.request(method, url, body)).status, `${method} ${url}`).toBe(401);
      expect((await plain.request(method, url, body)).status, `${method} ${url}`).toBe(403);
    }
    expect(await t.db.select().from(pricingPlans)).toHaveLength(1);
    expect(await t.db.select().from(adminAuditLogs)).toEqual([]);
  });

  it('lists Free first with how many users are on it', async () => {
    const res = await admin.get<AdminPricingPlansResponse>('/rest/v1/admin/pricing-plans');
    expect(res.status).toBe(200);
    expect(res.body.plans[0]).toMatchObject({
      name: 'Free',
      price_cents: 0,
      daily_prompt_limit: null,
      allowed_providers: [],
      allowed_models: [],
      // Set by the storage migration: 10 MB a file, 100 MB in all.
      max_file_bytes: 10 * MB,
      storage_quota_bytes: 100 * MB,
      user_count: 2,
    });
  });

  it('sets, changes and clears a plan’s file limits, which uploads then obey', async () => {
    const created = await admin.post<AdminPricingPlan>('/rest/v1/admin/pricing-plans', {
      name: 'Files',
      max_file_bytes: 2 * MB,
      storage_quota_bytes: 50 * MB,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ max_file_bytes: 2 * MB, storage_quota_bytes: 50 * MB });
    await t.db.update(profiles).set({ plan_id: created.body.id }).where(eq(profiles.id, plain.id));
    expect((await plain.get<StorageUsage>('/storage/v1/usage')).body).toMatchObject({
      plan_name: 'Files',
      max_file_bytes: 2 * MB,
      storage_quota_bytes: 50 * MB,
    });

    const cleared = await admin.patch<AdminPricingPlan>(
      `/rest/v1/admin/pricing-plans/${created.body.id}`,
      { max_file_bytes: null, storage_quota_bytes: 1000 },
    );
    expect(cleared.body).toMatchObject({ max_file_bytes: null, storage_quota_bytes: 1000 });
    expect((await auditFor(created.body.id))[0]!.details).toMatchObject({
      changes: { max_file_bytes: null, storage_quota_bytes: 1000 },
      previous: { max_file_bytes: 2 * MB, storage_quota_bytes: 50 * MB },
    });
    // Null is the instance default.
    expect((await plain.get<StorageUsage>('/storage/v1/usage')).body).toMatchObject({
      max_file_bytes: fileLimitDefaults.maxFileBytes,
      storage_quota_bytes: 1000,
    });
    await t.db.update(profiles).set({ plan_id: null }).where(eq(profiles.id, plain.id));
    await admin.del(`/rest/v1/admin/pricing-plans/${created.body.id}`);
  });

  it('sets, changes and clears a plan’s schedule limits, null meaning the defaults', async () => {
    expect(await freePlan()).toMatchObject({
      max_schedules: null,
      min_schedule_interval_minutes: null,
    });
    const created = await admin.post<AdminPricingPlan>('/rest/v1/admin/pricing-plans', {
      name: 'Schedules',
      max_schedules: 0,
      min_schedule_interval_minutes: 10_080,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ max_schedules: 0, min_schedule_interval_minutes: 10_080 });
    const changed = await admin.patch<AdminPricingPlan>(
      `/rest/v1/admin/pricing-plans/${created.body.id}`,
      { max_schedules: 1000, min_schedule_interval_minutes: null },
    );
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      max_schedules: 1000,
      min_schedule_interval_minutes: null,
    });
    expect((await auditFor(created.body.id))[0]!.details).toMatchObject({
      changes: { max_schedules: 1000, min_schedule_interval_minutes: null },
      previous: { max_schedules: 0, min_schedule_interval_minutes: 10_080 },
    });
    // Other changes leave them as they are.
    const repriced = await admin.patch<AdminPricingPlan>(
      `/rest/v1/admin/pricing-plans/${created.body.id}`,
      { price_cents: 500 },
    );
    expect(repriced.body).toMatchObject({
      max_schedules: 1000,
      min_schedule_interval_minutes: null,
    });
    await admin.del(`/rest/v1/admin/pricing-plans/${created.body.id}`);
  });

  it('creates, edits and deletes a plan, writing each change to the audit log', async () => {
    const created = await admin.post<AdminPricingPlan>('/rest/v1/admin/pricing-plans', {
      name: '  Pro  ',
      price_cents: 1500,
      daily_prompt_limit: 200,
      allowed_providers: ['openai', 'anthropic', 'openai'],
      allowed_models: ['gpt-5-mini'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Pro',
      price_cents: 1500,
      daily_prompt_limit: 200,
      allowed_providers: ['openai', 'anthropic'],
      allowed_models: ['gpt-5-mini'],
      stripe_price_id: null,
      user_count: 0,
    });
    const id = created.body.id;
    expect((await auditFor(id))[0]).toMatchObject({
      admin_id: admin.id,
      action: 'create_pricing_plan',
      table_name: 'pricing_plans',
    });

    const edited = await admin.patch<AdminPricingPlan>(`/rest/v1/admin/pricing-plans/${id}`, {
      daily_prompt_limit: null,
      allowed_models: [],
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ daily_prompt_limit: null, allowed_models: [] });
    const [update] = await auditFor(id);
    expect(update).toMatchObject({ action: 'update_pricing_plan' });
    expect(update!.details).toMatchObject({
      changes: { daily_prompt_limit: null, allowed_models: [] },
      previous: { daily_prompt_limit: 200, allowed_models: ['gpt-5-mini'] },
    });

    // The plain user is put on the plan; deleting it moves them to Free.
    await t.db.update(profiles).set({ plan_id: id }).where(eq(profiles.id, plain.id));
    expect((await plain.get<Profile>('/rest/v1/profile')).body.plan.name).toBe('Pro');
    const deleted = await admin.del<{ moved_to_free: number }>(
      `/rest/v1/admin/pricing-plans/${id}`,
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body.moved_to_free).toBe(1);
    const profile = (await plain.get<Profile>('/rest/v1/profile')).body;
    expect(profile.plan.name).toBe('Free');
    expect(profile.plan_id).toBe((await freePlan()).id);
    expect((await auditFor(id))[0]).toMatchObject({
      action: 'delete_pricing_plan',
      details: { name: 'Pro', moved_to_free: 1 },
    });
    expect((await admin.del(`/rest/v1/admin/pricing-plans/${id}`)).status).toBe(404);
    expect((await admin.patch(`/rest/v1/admin/pricing-plans/${id}`, { name: 'X' })).status).toBe(
      404,
    );
  });

  it('answers 409 for a name that is already taken', async () => {
    const first = await admin.post<AdminPricingPlan>('/rest/v1/admin/pricing-plans', {
      name: 'Team',
    });
    expect(first.status).toBe(201);
    const again = await admin.post('/rest/v1/admin/pricing-plans', { name: 'Team' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: planMessages.planNameTaken('Team') });
    const rename = await admin.patch(`/rest/v1/admin/pricing-plans/${first.body.id}`, {
      name: 'Free',
    });
    expect(rename.status).toBe(409);
  });

  it('never deletes or renames Free, and says why', async () => {
    const free = await freePlan();
    const del = await admin.del(`/rest/v1/admin/pricing-plans/${free.id}`);
    expect(del.status).toBe(400);
    expect(del.body).toMatchObject({ error: planMessages.freePlanUndeletable });
    const rename = await admin.patch(`/rest/v1/admin/pricing-plans/${free.id}`, { name: 'Basic' });
    expect(rename.status).toBe(400);
    expect(rename.body).toMatchObject({ error: planMessages.freePlanNotRenamable });
    // Its limits can change.
    const limited = await admin.patch<AdminPricingPlan>(`/rest/v1/admin/pricing-plans/${free.id}`, {
      name: 'Free',
      daily_prompt_limit: 20,
    });
    expect(limited.status).toBe(200);
    expect(limited.body).toMatchObject({ name: 'Free', daily_prompt_limit: 20 });
    expect((await freePlan()).name).toBe('Free');
  });

  it('answers 400 for bad input', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: 'X', price_cents: -1 },
      { name: 'X', daily_prompt_limit: 1.5 },
      { name: 'X', allowed_providers: ['openia'] },
      { name: 'X', surprise: true },
      { name: 'X', max_file_bytes: 0 },
      { name: 'X', max_file_bytes: 6 * 1024 * MB },
      { name: 'X', storage_quota_bytes: -1 },
      { name: 'X', storage_quota_bytes: '100 MB' },
      { name: 'X', max_schedules: -1 },
      { name: 'X', max_schedules: 1001 },
      { name: 'X', max_schedules: 2.5 },
      { name: 'X', min_schedule_interval_minutes: 0 },
      { name: 'X', min_schedule_interval_minutes: 10_081 },
      { name: 'X', min_schedule_interval_minutes: '1 h' },
    ]) {
      expect(
        (await admin.post('/rest/v1/admin/pricing-plans', body)).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect(
      (await admin.patch('/rest/v1/admin/pricing-plans/not-a-uuid', { name: 'Y' })).status,
    ).toBe(400);
    const free = await freePlan();
    expect((await admin.patch(`/rest/v1/admin/pricing-plans/${free.id}`, {})).status).toBe(400);
  });
});
