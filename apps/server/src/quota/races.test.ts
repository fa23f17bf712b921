import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLimits, type Agent } from '@chorus/shared/api/agents';
import {
  conversations as conversationsTable,
  pricingPlans,
  profiles,
  promptUsage,
  runSlots,
} from '../db/schema/index.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../test/harness.ts';
import { waitFor } from '../test/streams.ts';

/**
 * Quotas and limits under a crowd of requests at once (docs/SECURITY.md, "Budgets under races"):
 * each takes its place in the statement that checks it, so 20 or 100 requests together never
 * pass a limit, however they interleave.
 */

type Client = Awaited<ReturnType<TestApp['user']>>;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
});
afterAll(async () => {
  await t.close();
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
