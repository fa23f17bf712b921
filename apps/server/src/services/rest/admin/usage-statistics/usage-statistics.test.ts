import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageStatisticsResponse } from '@chorus/shared/api/usage';
import { promptUsage, usageEvents, users } from '../../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;
let plain: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('root@example.com');
  plain = await t.user('plain@example.com');
  // Sign-up refuses such an address, but one may come from elsewhere: the CSV must defuse it.
  await t.db.update(users).set({ email: '=plain@example.com' }).where(eq(users.id, plain.id));
  await t.db.insert(promptUsage).values([
    { user_id: admin.id, date: '2025-01-01', count: 3 },
    { user_id: admin.id, date: '2025-01-02', count: 1 },
    { user_id: plain.id, date: '2025-01-02', count: 7 },
    { user_id: plain.id, date: '2025-02-15', count: 9 },
  ]);
  const at = (iso: string) => new Date(iso);
  await t.db.insert(usageEvents).values([
    {
      user_id: admin.id,
      source: 'chat',
      provider: 'openai',
      model: 'gpt-5-mini',
      input_tokens: 10,
      output_tokens: 20,
      cost_usd: 0.0000425,
      created_at: at('2025-01-01T10:00:00Z'),
    },
    {
      user_id: plain.id,
      source: 'proxy',
      provider: 'openai',
      model: 'gpt-5-mini',
      input_tokens: 5,
      output_tokens: 6,
      cost_usd: 0.0000132,
      created_at: at('2025-01-02T23:59:59Z'),
    },
    {
      user_id: plain.id,
      source: 'chat',
      provider: 'openai',
      model: 'gpt-5-mini',
      status: 'error',
      created_at: at('2025-01-02T12:00:00Z'),
    },
    {
      user_id: plain.id,
      source: 'chat',
      provider: 'anthropic',
      model: 'claude',
      input_tokens: 1,
      output_tokens: 2,
      created_at: at('2025-01-02T00:00:00Z'),
    },
    // Outside the range: the day after `to`.
    {
      user_id: plain.id,
      source: 'chat',
      provider: 'anthropic',
      model: 'claude',
      input_tokens: 100,
      output_tokens: 100,
      created_at: at('2025-01-03T00:00:00Z'),
    },
  ]);
});
afterAll(() => t.close());

const url = (q: string) => `/rest/v1/admin/usage-statistics?${q}`;

describe('GET /rest/v1/admin/usage-statistics', () => {
  it('refuses a guest with 401 and a plain user with 403', async () => {
    expect((await t.client().get(url('from=2025-01-01&to=2025-01-02'))).status).toBe(401);
    const res = await plain.get(url('from=2025-01-01&to=2025-01-02&format=csv'));
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain('root@example.com');
  });

  it('answers prompts per user per day and tokens per provider and model in the range', async () => {
    const res = await admin.get<UsageStatisticsResponse>(url('from=2025-01-01&to=2025-01-02'));
    expect(res.status).toBe(200);
    expect(res.body.from).toBe('2025-01-01');
    expect(res.body.to).toBe('2025-01-02');
    expect(res.body.prompt_usage).toEqual([
      { user_id: plain.id, email: '=plain@example.com', date: '2025-01-02', count: 7 },
      { user_id: admin.id, email: 'root@example.com', date: '2025-01-02', count: 1 },
      { user_id: admin.id, email: 'root@example.com', date: '2025-01-01', count: 3 },
    ]);
    expect(res.body.tokens).toEqual([
      {
        provider: 'anthropic',
        model: 'claude',
        calls: 1,
        errors: 0,
        input_tokens: 1,
        output_tokens: 2,
        cost_usd: null,
      },
      {
        provider: 'openai',
        model: 'gpt-5-mini',
        calls: 3,
        errors: 1,
        input_tokens: 15,
        output_tokens: 26,
        cost_usd: 0.000056,
      },
    ]);
    // The same calls by what they were for.
    expect(res.body.sources).toEqual([
      {
        source: 'chat',
        calls: 3,
        errors: 1,
        input_tokens: 11,
        output_tokens: 22,
        cost_usd: 0.000043,
      },
      {
        source: 'proxy',
        calls: 1,
        errors: 0,
        input_tokens: 5,
        output_tokens: 6,
        cost_usd: 0.000013,
      },
    ]);
  });

  it('exports CSV as an attachment, with formula-like cells kept as text', async () => {
    const res = await admin.get<string>(url('from=2025-01-01&to=2025-01-02&format=csv'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="chorus-prompt-usage-2025-01-01-to-2025-01-02.csv"',
    );
    expect(res.body).toBe(
      [
        'date,user_id,email,prompts',
        `2025-01-02,${plain.id},'=plain@example.com,7`,
        `2025-01-02,${admin.id},root@example.com,1`,
        `2025-01-01,${admin.id},root@example.com,3`,
        '',
      ].join('\r\n'),
    );
    const tokens = await admin.get<string>(
      url('from=2025-01-01&to=2025-01-02&format=csv&table=tokens'),
    );
    expect(tokens.headers.get('content-disposition')).toContain(
      'chorus-tokens-2025-01-01-to-2025-01-02.csv',
    );
    expect(tokens.body.split('\r\n')).toEqual([
      'provider,model,calls,errors,input_tokens,output_tokens,cost_usd',
      'anthropic,claude,1,0,1,2,',
      'openai,gpt-5-mini,3,1,15,26,0.000056',
      '',
    ]);
    const sources = await admin.get<string>(
      url('from=2025-01-01&to=2025-01-02&format=csv&table=sources'),
    );
    expect(sources.headers.get('content-disposition')).toContain(
      'chorus-sources-2025-01-01-to-2025-01-02.csv',
    );
    expect(sources.body.split('\r\n')).toEqual([
      'source,calls,errors,input_tokens,output_tokens,cost_usd',
      'chat,3,1,11,22,0.000043',
      'proxy,1,0,5,6,0.000013',
      '',
    ]);
  });

  it('defaults to the last 30 days and refuses bad or overlong ranges with 400', async () => {
    const res = await admin.get<UsageStatisticsResponse>(url(''));
    expect(res.status).toBe(200);
    const days = (Date.parse(res.body.to) - Date.parse(res.body.from)) / 86_400_000 + 1;
    expect(days).toBe(30);
    expect(res.body.to).toBe(new Date().toISOString().slice(0, 10));
    for (const q of [
      'from=2025-01-05&to=2025-01-01',
      'from=2024-01-01&to=2025-01-02',
      'from=yesterday',
      'from=2025-02-30',
      'format=xml',
    ]) {
      const bad = await admin.get<{ error: string }>(url(q));
      expect(bad.status, q).toBe(400);
      expect(bad.body.error, q).toBeTruthy();
    }
    expect((await admin.get(url('from=2024-01-01&to=2024-12-31'))).status).toBe(200);
  });

  it('answers the first and last days a date may name, and refuses year 0 as request:bad_date', async () => {
    // The default 30 days before the first day, or after the last, stop at the edge.
    for (const [q, from, to] of [
      ['to=0001-01-05', '0001-01-01', '0001-01-05'],
      ['from=9999-12-20', '9999-12-20', '9999-12-31'],
      ['from=9999-12-31&to=9999-12-31', '9999-12-31', '9999-12-31'],
    ]) {
      const res = await admin.get<UsageStatisticsResponse>(url(q!));
      expect(res.status, q).toBe(200);
      expect([res.body.from, res.body.to], q).toEqual([from, to]);
    }
    for (const q of ['from=0000-01-01', 'to=0000-12-31', 'from=0000-02-29&to=0001-01-01']) {
      const res = await admin.get<{ code: string }>(url(q));
      expect([res.status, res.body.code], q).toEqual([400, 'request:bad_date']);
    }
  });
});
