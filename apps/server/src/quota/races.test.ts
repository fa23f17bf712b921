import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLimits, type Agent } from '@chorus/shared/api/agents';
import { customAiLimits } from '@chorus/shared/api/custom-ais';
import { knowledgeLimits } from '@chorus/shared/api/knowledge';
import { promptLimits } from '@chorus/shared/api/prompts';
import { scenarioLimits } from '@chorus/shared/api/scenarios';
import { testRunLimits } from '@chorus/shared/api/test-runs';
import { toolLimits } from '@chorus/shared/api/tools';
import { widgetLimits } from '@chorus/shared/api/widgets';
import { workflowLimits } from '@chorus/shared/api/workflows';
import {
  conversations as conversationsTable,
  pricingPlans,
  profiles,
  promptUsage,
  runSlots,
  testRuns,
} from '../db/schema/index.ts';
import type { Database } from '../db/client.ts';
import { openTestDatabase } from '../test/database.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../test/harness.ts';
import { waitFor } from '../test/streams.ts';

/**
 * Quotas and limits under a crowd of requests at once (docs/SECURITY.md, "Budgets under races"):
 * each takes its place in the statement that checks it, so 20 or 100 requests together never
 * pass a limit, however they interleave.
 */

type Client = Awaited<ReturnType<TestApp['user']>>;

let t: TestApp;
let database: Database;

// 100 requests at once queue for the pool's 20 connections: on a busy machine the default 5 s
// wait for one would answer some of them 503, which is not what these tests are about.
const patientPool = { connectTimeoutMs: 60_000 };

beforeAll(async () => {
  database = await openTestDatabase(patientPool);
  t = await startTestApp({ providerSim: true, jobs: true, database });
});
afterAll(async () => {
  await t.close();
  await database.close();
});

const today = () => new Date().toISOString().slice(0, 10);

/** A signed-in user with an OpenAI key, on a plan of `dailyPrompts` prompts a day. */
const userOnPlan = async (email: string, dailyPrompts: number | null = null) => {
  const u = await t.user(email);
  expect((await u.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-race' })).status).toBe(
    200,
  );
  if (dailyPrompts !== null) {
    const [plan] = await t.db
      .insert(pricingPlans)
      .values({ name: `Race ${randomUUID()}`, price_cents: 0, daily_prompt_limit: dailyPrompts })
      .returning();
    await t.db.update(profiles).set({ plan_id: plan!.id }).where(eq(profiles.id, u.id));
  }
  return u;
};

/** POST /functions/v1/chat as `u`, the raw response (its body unread). */
const chat = (u: Client, body: Record<string, unknown>) =>
  t.app.request('/functions/v1/chat', {
    method: 'POST',
    headers: {
      origin: TEST_APP_URL,
      'content-type': 'application/json',
      'x-forwarded-for': u.ip,
      cookie: [...u.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    },
    body: JSON.stringify({ provider: 'openai', ...body }),
  });

/** `n` conversations of `u`, written as the app writes them (its create route is rate-limited). */
const conversations = (u: Client, n: number) =>
  t.db
    .insert(conversationsTable)
    .values(Array.from({ length: n }, (_, i) => ({ user_id: u.id, title: `Race ${i}` })))
    .returning({ id: conversationsTable.id });

const promptsCounted = async (userId: string) => {
  const [row] = await t.db
    .select({ count: promptUsage.count })
    .from(promptUsage)
    .where(and(eq(promptUsage.user_id, userId), eq(promptUsage.date, today())));
  return row?.count ?? 0;
};

describe('the plan’s daily prompts', () => {
  it.each([20, 100])(
    '%i chat turns at once on a plan of 7 a day: exactly 7 answered, 7 counted',
    async (crowd) => {
      const u = await userOnPlan(`race-prompts-${crowd}@example.com`, 7);
      const convs = await conversations(u, crowd);
      const responses = await Promise.all(
        convs.map((c, i) => chat(u, { conversation_id: c.id, text: `Turn ${i}` })),
      );
      const bodies = await Promise.all(responses.map((r) => r.text()));
      const answered = responses.filter((r) => r.status === 200);
      expect(answered).toHaveLength(7);
      responses.forEach((r, i) => {
        if (r.status === 200) return;
        expect(r.status).toBe(403);
        expect((JSON.parse(bodies[i]!) as { code: string }).code).toBe('quota:exceeded');
      });
      expect(await promptsCounted(u.id)).toBe(7);
    },
  );
});

describe('agent runs going at once', () => {
  it.each([20, 100])(
    '%i agent turns at once: as many stream as the limit allows, the rest are told to wait',
    async (crowd) => {
      const u = await userOnPlan(`race-agents-${crowd}@example.com`);
      const agent = await u.post<Agent>('/rest/v1/agents', {
        name: `Racer ${crowd}`,
        instructions: 'Answer.',
        provider: 'openai',
        tools: [],
      });
      expect(agent.status).toBe(201);
      const convs = await conversations(u, crowd);
      // Each run streams its first token and then stays open, as a long answer would.
      const responses = await Promise.all(
        convs.map((c) =>
          chat(u, { conversation_id: c.id, agent_id: agent.body.id, text: 'Go on [sim:hang]' }),
        ),
      );
      const streaming = responses.filter((r) => r.status === 200);
      expect(streaming).toHaveLength(agentLimits.concurrentRuns);
      for (const r of responses.filter((x) => x.status !== 200)) {
        expect(r.status).toBe(429);
        expect(((await r.json()) as { code: string }).code).toBe('agents:too_many_runs');
      }
      // Every admitted run really is streaming: each sends its first token.
      const readers = streaming.map((r) => r.body!.getReader());
      await Promise.all(readers.map((reader) => reader.read()));
      expect(await t.db.select().from(runSlots).where(eq(runSlots.user_id, u.id))).toHaveLength(
        agentLimits.concurrentRuns,
      );

      // Runs that end give their places back: the next turn runs.
      await Promise.all(readers.map((reader) => reader.cancel()));
      await waitFor(
        async () =>
          (await t.db.select().from(runSlots).where(eq(runSlots.user_id, u.id))).length === 0,
      );
      const [next] = await conversations(u, 1);
      const after = await chat(u, {
        conversation_id: next!.id,
        agent_id: agent.body.id,
        text: 'Hi',
      });
      expect(after.status).toBe(200);
      await after.text();
    },
  );

  it('takes over the place of a run whose instance is gone', async () => {
    const u = await userOnPlan('race-agents-crashed@example.com');
    const agent = await u.post<Agent>('/rest/v1/agents', {
      name: 'Crash survivor',
      instructions: 'Answer.',
      provider: 'openai',
      tools: [],
    });
    // Every place held by runs of an instance that died without giving them back.
    const gone = randomUUID();
    await t.db.insert(runSlots).values(
      Array.from({ length: agentLimits.concurrentRuns }, (_, i) => ({
        user_id: u.id,
        kind: 'agent_run',
        slot: i + 1,
        holder: randomUUID(),
        instance_id: gone,
        expires_at: new Date(Date.now() + 300_000),
      })),
    );
    const [c] = await conversations(u, 1);
    const res = await chat(u, { conversation_id: c!.id, agent_id: agent.body.id, text: 'Hello' });
    expect(res.status).toBe(200);
    await res.text();
  });
});

/**
 * Copies the user's row `id` of `table` until the user has `total` rows: each copy a new id, and
 * `unique` columns made distinct (`<column> || '-' || n`). What earlier saves would have left.
 */
const fillTo = async (
  table: string,
  id: string,
  userId: string,
  total: number,
  unique: Record<string, 'suffix' | 'public_id'> = {},
) => {
  const overrides = sql.join(
    [
      sql`'id', gen_random_uuid()`,
      ...Object.entries(unique).map(([column, how]) =>
        how === 'public_id'
          ? sql`${column}::text, 'wgt_' || substr(md5(random()::text || g::text), 1, 20)`
          : sql`${column}::text, (to_jsonb(src) ->> ${column}) || '-' || g`,
      ),
    ],
    sql`, `,
  );
  const tableSql = sql.identifier(table);
  await t.db.execute(sql`
    insert into ${tableSql}
    select (jsonb_populate_record(null::${tableSql}, to_jsonb(src) || jsonb_build_object(${overrides}))).*
    from ${tableSql} src,
      generate_series(1, ${total} - (select count(*)::int from ${tableSql} where user_id = ${userId})) g
    where src.id = ${id}::uuid
  `);
};

const rowsOfUser = async (table: string, userId: string) => {
  const result = await t.db.execute(
    sql`select count(*)::int as n from ${sql.identifier(table)} where user_id = ${userId}`,
  );
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]!.n);
};

type Ctx = { customAiId: string; setId: string };

type Kind = {
  what: string;
  table: string;
  limit: number;
  path: string | ((ctx: Ctx) => string);
  code: string;
  body: (i: number, ctx: Ctx) => Record<string, unknown>;
  unique?: Record<string, 'suffix' | 'public_id'>;
};

const kinds: Kind[] = [
  {
    what: 'agents',
    table: 'agents',
    limit: agentLimits.perUser,
    path: '/rest/v1/agents',
    code: 'agents:too_many',
    body: (i) => ({ name: `Racer ${i}`, instructions: 'Answer.', provider: 'openai', tools: [] }),
    unique: { handle: 'suffix' },
  },
  {
    what: 'custom AIs',
    table: 'custom_ais',
    limit: customAiLimits.perUser,
    path: '/rest/v1/custom-ais',
    code: 'custom_ais:too_many',
    body: (i) => ({ name: `Persona ${i}`, provider: 'openai' }),
  },
  {
    what: 'HTTP tools',
    table: 'http_tools',
    limit: toolLimits.perUser,
    path: '/rest/v1/tools',
    code: 'tools:too_many',
    body: (i) => ({
      name: `lookup_${i}`,
      description: 'Looks an item up',
      method: 'GET',
      url_template: 'https://api.example.com/items/{item}',
      headers: [],
      input_schema: {
        type: 'object',
        properties: { item: { type: 'string' } },
        required: ['item'],
      },
    }),
    unique: { name: 'suffix' },
  },
  {
    what: 'knowledge bases',
    table: 'knowledge_bases',
    limit: knowledgeLimits.perUser,
    path: '/rest/v1/knowledge-bases',
    code: 'knowledge:too_many',
    body: (i) => ({ name: `Base ${i}` }),
  },
  {
    what: 'widgets',
    table: 'widgets',
    limit: widgetLimits.perUser,
    path: '/rest/v1/widgets',
    code: 'widgets:too_many',
    body: (i, ctx) => ({
      name: `Widget ${i}`,
      target: { custom_ai_id: ctx.customAiId },
      appearance: { title: 'Ask us' },
    }),
    unique: { public_id: 'public_id' },
  },
  {
    what: 'workflows',
    table: 'workflows',
    limit: workflowLimits.perUser,
    path: '/rest/v1/workflows',
    code: 'workflows:too_many',
    body: (i) => ({
      name: `Pipeline ${i}`,
      steps: [{ id: 'say', kind: 'transform', mode: 'template', template: 'Hello' }],
    }),
  },
  {
    what: 'scenarios',
    table: 'scenarios',
    limit: scenarioLimits.perUser,
    path: '/rest/v1/scenarios',
    code: 'scenarios:too_many',
    body: (i) => ({
      title: `Scenario ${i}`,
      user_prompt: 'Plan a day',
      targets: [{ provider: 'openai', model: 'gpt-4o-mini' }],
    }),
  },
  {
    what: 'MCP servers',
    table: 'mcp_servers',
    limit: toolLimits.mcpServersPerUser,
    path: '/rest/v1/mcp-servers',
    code: 'mcp:too_many',
    // Nothing listens there: each server is saved, then reads as not reachable.
    body: (i) => ({ name: `Server ${i}`, url: 'http://127.0.0.1:9/mcp' }),
  },
  {
    what: 'prompts',
    table: 'prompts',
    limit: promptLimits.perUser,
    path: '/rest/v1/prompts',
    code: 'prompts:too_many',
    body: (i) => ({ title: `Prompt ${i}`, content: 'Say hello' }),
  },
  {
    what: 'access tokens',
    table: 'access_tokens',
    limit: testRunLimits.tokensPerUser,
    path: '/rest/v1/access-tokens',
    code: 'access_tokens:too_many',
    body: (i) => ({ name: `CI ${i}` }),
    unique: { token_hash: 'suffix' },
  },
  {
    what: 'test sets',
    table: 'test_sets',
    limit: testRunLimits.setsPerUser,
    path: '/rest/v1/test-sets',
    code: 'test_sets:too_many',
    body: (i, ctx) => ({ name: `Set ${i}`, subject: { kind: 'custom_ai', id: ctx.customAiId } }),
  },
  {
    what: 'cases of a test set',
    table: 'test_cases',
    limit: testRunLimits.casesPerSet,
    path: (ctx) => `/rest/v1/test-sets/${ctx.setId}/cases`,
    code: 'test_sets:too_many_cases',
    body: (i) => ({ name: `Case ${i}`, input: 'Hello' }),
  },
];

describe('per-user limits on what a user keeps', () => {
  it.each(kinds.map((k) => [k.what, k] as const))(
    '%s: 20 saves at once for the last place, one is saved',
    async (_what, kind) => {
      const u = await userOnPlan(`race-keep-${kind.table}@example.com`);
      const ai = await u.post<{ id: string }>('/rest/v1/custom-ais', {
        name: 'Target',
        provider: 'openai',
      });
      expect(ai.status).toBe(201);
      const set = await u.post<{ id: string }>('/rest/v1/test-sets', {
        name: 'Cases',
        subject: { kind: 'custom_ai', id: ai.body.id },
      });
      expect(set.status).toBe(201);
      const ctx = { customAiId: ai.body.id, setId: set.body.id };
      const path = typeof kind.path === 'string' ? kind.path : kind.path(ctx);
      const first = await u.post<{ id: string }>(path, kind.body(0, ctx));
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      await fillTo(kind.table, first.body.id, u.id, kind.limit - 1, kind.unique);
      expect(await rowsOfUser(kind.table, u.id)).toBe(kind.limit - 1);

      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          u.post<{ code?: string }>(path, kind.body(i + 1, ctx)),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 201)) {
        expect(r.status).toBe(409);
        expect(r.body.code).toBe(kind.code);
      }
      expect(await rowsOfUser(kind.table, u.id)).toBe(kind.limit);
    },
  );

  it('100 widget saves at once with none kept: exactly as many as a user may keep', async () => {
    const u = await userOnPlan('race-keep-widgets-100@example.com');
    const ai = await u.post<{ id: string }>('/rest/v1/custom-ais', {
      name: 'T',
      provider: 'openai',
    });
    const widgets = kinds.find((k) => k.table === 'widgets')!;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        u.post('/rest/v1/widgets', widgets.body(i, { customAiId: ai.body.id, setId: '' })),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(widgetLimits.perUser);
    expect(results.filter((r) => r.status === 409)).toHaveLength(100 - widgetLimits.perUser);
    expect(await rowsOfUser('widgets', u.id)).toBe(widgetLimits.perUser);
  });

  it('schedules: 20 saves at once on a plan of 3, three are saved', async () => {
    const u = await userOnPlan('race-keep-schedules@example.com');
    const [plan] = await t.db
      .insert(pricingPlans)
      .values({ name: `Race ${randomUUID()}`, price_cents: 0, max_schedules: 3 })
      .returning();
    await t.db.update(profiles).set({ plan_id: plan!.id }).where(eq(profiles.id, u.id));
    const prompt = await u.post<{ id: string }>('/rest/v1/prompts', {
      title: 'Digest',
      content: 'Summarise the news',
    });
    expect(prompt.status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        u.post<{ code?: string }>('/rest/v1/schedules', {
          name: `Digest ${i}`,
          cron: '0 9 1 1 *',
          target: { kind: 'prompt', prompt_id: prompt.body.id, provider: 'openai' },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('schedules:too_many');
    }
    expect(await rowsOfUser('schedules', u.id)).toBe(3);
  });
});

describe('test runs queued or going at once', () => {
  it.each([20, 100])('%i starts at once: as many run as the limit allows', async (crowd) => {
    const u = await userOnPlan(`race-test-runs-${crowd}@example.com`);
    const ai = await u.post<{ id: string }>('/rest/v1/custom-ais', {
      name: 'Under test',
      provider: 'openai',
    });
    const set = await u.post<{ id: string }>('/rest/v1/test-sets', {
      name: 'Slow set',
      subject: { kind: 'custom_ai', id: ai.body.id },
      notify: false,
    });
    expect(set.status).toBe(201);
    // A few seconds a call: the runs admitted are still going when the race is over.
    const added = await u.post(`/rest/v1/test-sets/${set.body.id}/cases`, {
      name: 'Slow',
      input: 'Take your time [sim:tokens 30] [sim:delay-ms 100]',
    });
    expect(added.status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: crowd }, () =>
        u.post<{ id: string; code?: string }>('/functions/v1/test-run', {
          test_set_id: set.body.id,
          targets: [{ provider: 'openai', model: 'gpt-5-mini' }],
        }),
      ),
    );
    const started = results.filter((r) => r.status === 202);
    expect(started).toHaveLength(testRunLimits.activeRunsPerUser);
    for (const r of results.filter((x) => x.status !== 202)) {
      expect(r.status).toBe(429);
      expect(r.body.code).toBe('test_runs:too_many_runs');
    }
    expect(await t.db.select().from(testRuns).where(eq(testRuns.user_id, u.id))).toHaveLength(
      testRunLimits.activeRunsPerUser,
    );
    for (const r of started) {
      await u.post(`/functions/v1/test-run/${r.body.id}/cancel`);
    }
  });
});

describe('the plan’s storage quota', () => {
  it.each([20, 100])(
    '%i uploads at once of 300 bytes on a quota of 1,000: three are kept',
    async (crowd) => {
      const u = await userOnPlan(`race-storage-${crowd}@example.com`);
      const [plan] = await t.db
        .insert(pricingPlans)
        .values({
          name: `Race ${randomUUID()}`,
          price_cents: 0,
          max_file_bytes: 800,
          storage_quota_bytes: 1_000,
        })
        .returning();
      await t.db.update(profiles).set({ plan_id: plan!.id }).where(eq(profiles.id, u.id));
      const results = await Promise.all(
        Array.from({ length: crowd }, async (_, i) => {
          const res = await u.send('POST', '/storage/v1/files', {
            body: Buffer.alloc(300, 0x61 + (i % 26)),
            headers: {
              'content-type': 'text/plain',
              'x-file-name': `notes-${i}.txt`,
              'content-length': '300',
            },
          });
          return { status: res.status, body: (await res.json()) as { code?: string } };
        }),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(3);
      for (const r of results.filter((x) => x.status !== 201)) {
        expect(r.status).toBe(413);
        expect(r.body.code).toBe('storage:quota_exceeded');
      }
      const usage = await u.get<{ used_bytes: number }>('/storage/v1/usage');
      expect(usage.body.used_bytes).toBe(900);
    },
  );
});

describe('the per-user request window', () => {
  let small: TestApp;
  let smallDatabase: Database;
  beforeAll(async () => {
    smallDatabase = await openTestDatabase(patientPool);
    small = await startTestApp({
      providerSim: true,
      env: { RATE_LIMIT_DATA_POINTS: '10' },
      database: smallDatabase,
    });
  });
  afterAll(async () => {
    await small.close();
    await smallDatabase.close();
  });

  it.each([20, 100])('%i requests at once on a window of 10: ten are answered', async (crowd) => {
    const u = await small.user(`race-window-${crowd}@example.com`);
    const results = await Promise.all(
      Array.from({ length: crowd }, () => u.get('/rest/v1/conversations')),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 429)).toHaveLength(crowd - 10);
  });

  it.each([20, 100])(
    '%i chat turns at once on a window of 10: what is left of it goes through, no more',
    async (crowd) => {
      const u = await small.user(`race-window-chat-${crowd}@example.com`);
      // The conversations are written directly, as each request would spend the window.
      const key = await u.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-window' });
      expect(key.status).toBe(200);
      const convs = await small.db
        .insert(conversationsTable)
        .values(Array.from({ length: crowd }, (_, i) => ({ user_id: u.id, title: `W ${i}` })))
        .returning({ id: conversationsTable.id });
      const responses = await Promise.all(
        convs.map((c, i) =>
          small.app.request('/functions/v1/chat', {
            method: 'POST',
            headers: {
              origin: TEST_APP_URL,
              'content-type': 'application/json',
              'x-forwarded-for': u.ip,
              cookie: [...u.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
            },
            body: JSON.stringify({ provider: 'openai', conversation_id: c.id, text: `Hi ${i}` }),
          }),
        ),
      );
      await Promise.all(responses.map((r) => r.text()));
      // The key's PUT took one point of the window.
      expect(responses.filter((r) => r.status === 200)).toHaveLength(9);
      expect(responses.filter((r) => r.status === 429)).toHaveLength(crowd - 9);
    },
  );
});
