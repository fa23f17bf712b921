import { stepCountIs, tool } from 'ai';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Conversation } from '@chorus/shared/api/conversations';
import { estimateCostUsd } from '@chorus/shared/prices';
import { profiles, promptUsage, usageEvents } from '../db/schema/index.ts';
import { ApiError } from '../http/errors.ts';
import { utcDate } from '../quota/quota.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../test/harness.ts';
import { embedTexts, prepareModelCall } from './model-call.ts';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;

// A small data window, so a test can spend it; every other test stays far below it.
const DATA_POINTS = 40;

beforeAll(async () => {
  t = await startTestApp({
    providerSim: true,
    env: { RATE_LIMIT_DATA_POINTS: String(DATA_POINTS) },
  });
  admin = await t.user('seam-root@example.com');
});
afterAll(() => t.close());

const withOpenAiKey = async (email: string) => {
  const u = await t.user(email);
  await u.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-seam-0000000001' });
  return u;
};

const eventsOf = (userId: string) =>
  t.db.select().from(usageEvents).where(eq(usageEvents.user_id, userId));

const promptsToday = async (userId: string) =>
  (
    await t.db
      .select()
      .from(promptUsage)
      .where(and(eq(promptUsage.user_id, userId), eq(promptUsage.date, utcDate(new Date()))))
  )[0]?.count ?? 0;

const refusal = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('the model-call seam', () => {
  it('records source, tokens, estimated cost, latency and time to first token for each call', async () => {
    const ann = await withOpenAiKey('seam-usage@example.com');
    const conv = (await ann.post<Conversation>('/rest/v1/conversations', {})).body;
    const chat = await t.app.request('/functions/v1/chat', {
      method: 'POST',
      headers: {
        origin: TEST_APP_URL,
        'content-type': 'application/json',
        'x-forwarded-for': ann.ip,
        cookie: [...ann.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: JSON.stringify({
        conversation_id: conv.id,
        provider: 'openai',
        model: 'gpt-4o-mini',
        text: 'Hello [sim:tokens 12]',
      }),
    });
    await chat.text();
    const proxied = await ann.post('/functions/v1/ai-api-proxy', {
      provider: 'openai',
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi [sim:tokens 5]' }],
    });
    expect(proxied.status).toBe(200);

    const rows = (await eventsOf(ann.id)).sort((a, b) => a.source.localeCompare(b.source));
    expect(rows.map((r) => [r.source, r.provider, r.model, r.status])).toEqual([
      ['chat', 'openai', 'gpt-4o-mini', 'ok'],
      ['proxy', 'openai', 'gpt-4o-mini', 'ok'],
    ]);
    const [chatRow, proxyRow] = rows;
    expect(chatRow!.output_tokens).toBe(12);
    expect(chatRow!.cost_usd).toBe(
      estimateCostUsd('openai', 'gpt-4o-mini', {
        input: chatRow!.input_tokens,
        output: chatRow!.output_tokens,
      }),
    );
    expect(chatRow!.ttft_ms).not.toBeNull();
    expect(chatRow!.latency_ms).toBeGreaterThanOrEqual(chatRow!.ttft_ms!);
    // A call that did not stream has a latency but no first token.
    expect(proxyRow!.latency_ms).not.toBeNull();
    expect(proxyRow!.ttft_ms).toBeNull();
  });

  it('refuses a call over the data window with 429 and Retry-After, before any provider is asked', async () => {
    const ann = await withOpenAiKey('seam-limited@example.com');
    // The same window as every other /rest and /functions call of this user: saving the key
    // spent one point already.
    for (let i = 0; i < DATA_POINTS - 2; i += 1) {
      expect((await ann.get('/rest/v1/profile')).status).toBe(200);
    }
    const asked = t.sim.requests.length;
    const ok = await ann.post('/functions/v1/ai-api-proxy', {
      provider: 'openai',
      messages: [{ role: 'user', content: 'the last one in the window' }],
    });
    expect(ok.status).toBe(200);
    const refused = await ann.post<{ code: string; error: string }>('/functions/v1/ai-api-proxy', {
      provider: 'openai',
      messages: [{ role: 'user', content: 'one too many' }],
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limit:exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(t.sim.requests.length).toBe(asked + 1);
    expect(await promptsToday(ann.id)).toBe(1);
  });

  it('never spends a system key on a request the plan refuses', async () => {
    await admin.request('PUT', '/rest/v1/admin/api-keys/system/mistral', {
      api_key: 'mistral-system-seam-0001',
    });
    const ann = await t.user('seam-refused@example.com');
    const plan = await admin.post<{ id: string }>('/rest/v1/admin/pricing-plans', {
      name: 'Seam zero',
      price_cents: 0,
      daily_prompt_limit: 0,
    });
    await t.db.update(profiles).set({ plan_id: plan.body.id }).where(eq(profiles.id, ann.id));
    const asked = t.sim.requests.length;
    const res = await ann.post<{ code: string }>('/functions/v1/ai-api-proxy', {
      provider: 'mistral',
      messages: [{ role: 'user', content: 'on the house?' }],
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('quota:exceeded');
    expect(t.sim.requests.length).toBe(asked);
    expect(await eventsOf(ann.id)).toEqual([]);
  });

  it('gives a prepared call’s prompt back when the call is not made', async () => {
    const ann = await withOpenAiKey('seam-refund@example.com');
    const call = await prepareModelCall(t.deps, {
      userId: ann.id,
      source: 'scenario',
      provider: 'openai',
      rateLimit: 'none',
    });
    expect(await promptsToday(ann.id)).toBe(1);
    await call.refund();
    await call.refund();
    expect(await promptsToday(ann.id)).toBe(0);
  });

  it('runs a model with tools, several calls in one turn, and reports the source', async () => {
    const ann = await withOpenAiKey('seam-tools@example.com');
    const call = await prepareModelCall(t.deps, {
      userId: ann.id,
      source: 'agent',
      provider: 'openai',
      model: 'gpt-4o-mini',
      rateLimit: 'none',
    });
    const calls: string[] = [];
    const add = tool({
      description: 'Adds two numbers',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: async ({ a, b }) => {
        calls.push(`${a}+${b}`);
        return a + b;
      },
    });
    const { text } = await call.generate({
      messages: [
        {
          role: 'user',
          content: 'Sum these [sim:tool add {"a":2,"b":3}] [sim:tool add {"a":40,"b":2}]',
        },
      ],
      tools: { add },
      stopWhen: stepCountIs(3),
    });
    expect(calls).toEqual(['2+3', '40+2']);
    expect(text).toContain('Tool add returned: 5.');
    expect(text).toContain('Tool add returned: 42.');
    expect((await eventsOf(ann.id)).map((e) => e.source)).toEqual(['agent']);
  });

  it('embeds through every provider that has an embedding model, and refuses the others', async () => {
    const ann = await t.user('seam-embed@example.com');
    await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-seam-embed-0001' });
    await ann.request('PUT', '/rest/v1/api-keys/gemini', { api_key: 'AIza-seam-embed-0001' });
    await ann.request('PUT', '/rest/v1/api-keys/mistral', { api_key: 'mistral-seam-embed-01' });
    await ann.request('PUT', '/rest/v1/api-keys/anthropic', { api_key: 'sk-ant-seam-embed-01' });
    const cases = [
      { provider: 'openai', model: 'text-embedding-3-small', dimensions: 1536 },
      { provider: 'gemini', model: 'text-embedding-004', dimensions: 768 },
      { provider: 'mistral', model: 'mistral-embed', dimensions: 1024 },
      { provider: 'ollama', model: 'nomic-embed-text', dimensions: 768 },
    ] as const;
    for (const c of cases) {
      const { embeddings } = await embedTexts(t.deps, {
        userId: ann.id,
        source: 'knowledge',
        provider: c.provider,
        model: c.model,
        values: ['the cat sat on the mat', 'the cat sat on a mat', 'quarterly tax filing'],
      });
      expect(embeddings.map((e) => e.length)).toEqual([c.dimensions, c.dimensions, c.dimensions]);
      const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);
      const [cat, cat2, tax] = embeddings as [number[], number[], number[]];
      expect(dot(cat, cat2)).toBeGreaterThan(dot(cat, tax));
    }
    const events = await eventsOf(ann.id);
    expect(events.map((e) => [e.source, e.provider]).sort()).toEqual(
      cases.map((c) => ['knowledge', c.provider]).sort(),
    );

    const none = await refusal(
      embedTexts(t.deps, {
        userId: ann.id,
        source: 'knowledge',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        values: ['x'],
      }),
    );
    expect(none.code).toBe('knowledge:no_embedding_model');
    expect(none.status).toBe(400);
  });
});
