import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPricingPlan } from '@chorus/shared/api/plans';
import {
  scenarioRunResponseSchema,
  scenarioRunSchema,
  type Scenario,
  type ScenarioRun,
  type ScenarioRunEvent,
  type ScenarioRunPage,
  type TestCase,
  type TestCaseList,
} from '@chorus/shared/api/scenarios';
import { messageFor } from '@chorus/shared/error-catalogue';
import { estimateCostUsd } from '@chorus/shared/prices';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { rowsOf } from '../../../db/client.ts';
import { profiles, promptUsage, scenarioRuns, usageEvents } from '../../../db/schema/index.ts';
import { utcDate } from '../../../quota/quota.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
  admin = await t.user('run-root@example.com');
});
afterAll(() => t.close());

type User = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };

const keys: Partial<Record<ProviderId, string>> = {
  openai: 'sk-run-test-0001',
  anthropic: 'sk-ant-run-test-0001',
  mistral: 'mistral-run-test-0001',
  openrouter: 'sk-or-run-test-0001',
};

/** A signed-in user with keys for the providers given (OpenAI, Anthropic, Mistral, OpenRouter). */
const runner = async (email: string, withKeys: ProviderId[] = ['openai']) => {
  const u = await t.user(email);
  for (const provider of withKeys) {
    const res = await u.request('PUT', `/rest/v1/api-keys/${provider}`, {
      api_key: keys[provider],
    });
    expect(res.status, provider).toBe(200);
  }
  return u;
};

/** Sends a run as `u`; the raw response, its body unread. */
const send = (u: User, body: unknown, signal?: AbortSignal) =>
  t.app.request('/functions/v1/scenario-run', {
    method: 'POST',
    signal,
    headers: {
      origin: TEST_APP_URL,
      'content-type': 'application/json',
      'x-forwarded-for': u.ip,
      cookie: [...u.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const readEvents = async (res: Response): Promise<ScenarioRunEvent[]> => {
  const text = await res.text();
  expect(text.endsWith('\n')).toBe(true);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ScenarioRunEvent);
};

/** A streamed run's events, checked to be well formed: start first, end last. */
const streamRun = async (u: User, body: Record<string, unknown>) => {
  const res = await send(u, body);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/x-ndjson');
  const events = await readEvents(res);
  const start = events[0];
  const end = events.at(-1);
  if (start?.type !== 'start' || end?.type !== 'end') throw new Error('start or end missing');
  expect(end.run_id).toBe(start.run_id);
  const results = events.flatMap((e) => (e.type === 'result' ? [e] : []));
  expect(results.map((r) => r.target).sort()).toEqual(start.targets.map((_, i) => i));
  const columns = start.targets.map((_, i) => results.find((r) => r.target === i)!.result);
  return { events, start, runId: start.run_id, columns };
};

const readRun = async (u: User, runId: string) => {
  const res = await u.get<ScenarioRun>(`/rest/v1/scenario-runs/${runId}`);
  expect(res.status).toBe(200);
  return scenarioRunSchema.parse(res.body);
};

const createPlan = async (body: Record<string, unknown>) => {
  const res = await admin.post<AdminPricingPlan>('/rest/v1/admin/pricing-plans', body);
  expect(res.status).toBe(201);
  return res.body;
};

const waitFor = async (check: () => Promise<boolean>, ms = 5_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
};

const fourTargets = [
  { provider: 'openai', model: 'gpt-4o-mini' },
  { provider: 'anthropic', model: 'claude-haiku-4-5' },
  { provider: 'mistral', model: '' },
  { provider: 'openrouter', model: 'openrouter/auto' },
];

describe('POST /functions/v1/scenario-run', () => {
  it('streams four models side by side as NDJSON and stores the run with the same results', async () => {
    const ann = await runner('four@example.com', ['openai', 'anthropic', 'mistral', 'openrouter']);
    const scenario = (
      await ann.post<Scenario>('/rest/v1/scenarios', {
        title: 'Otters',
        system_prompt: 'You are terse about {{topic}}.',
        user_prompt: 'Tell me about {{topic}} [sim:tokens 6]',
        variables: { topic: 'otters' },
        parameters: { temperature: 0.3, max_tokens: 50 },
        targets: fourTargets,
      })
    ).body;
    t.sim.requests.length = 0;
    const { events, start, runId, columns } = await streamRun(ann, { scenario_id: scenario.id });

    expect(start.targets).toEqual([
      { provider: 'openai', model: 'gpt-4o-mini' },
      { provider: 'anthropic', model: 'claude-haiku-4-5' },
      { provider: 'mistral', model: providers.mistral.defaultModel },
      { provider: 'openrouter', model: 'openrouter/auto' },
    ]);
    for (const [i, column] of columns.entries()) {
      const mine = events.filter((e) => 'target' in e && e.target === i);
      // A column's first token is announced before its text, and its result ends it.
      expect(mine[0]?.type).toBe('first_token');
      expect(mine.at(-1)?.type).toBe('result');
      const streamed = mine.map((e) => (e.type === 'delta' ? e.text : '')).join('');
      expect(column).toMatchObject({
        provider: start.targets[i]!.provider,
        model: start.targets[i]!.model,
        text: 'tok1 tok2 tok3 tok4 tok5 tok6',
        error: null,
      });
      expect(streamed).toBe(column.text);
      expect(column.ttft_ms).toEqual(expect.any(Number));
      expect(column.latency_ms).toBeGreaterThanOrEqual(column.ttft_ms!);
      expect(column.input_tokens).toBeGreaterThan(0);
      expect(column.output_tokens).toBe(6);
      expect(column.cost_usd).toBe(
        estimateCostUsd(column.provider as ProviderId, column.model, {
          input: column.input_tokens!,
          output: column.output_tokens!,
        }),
      );
    }
    // OpenRouter's models have no list price: no estimate rather than a wrong one.
    expect(columns[3]!.cost_usd).toBeNull();
    expect(columns[0]!.cost_usd).toBeGreaterThan(0);

    // Every model got the filled system prompt and prompt, and the parameters.
    const chats = t.sim.requests.filter((r) => r.method === 'POST');
    expect(chats).toHaveLength(4);
    for (const request of chats) {
      const sent = JSON.stringify(request.body);
      expect(sent).toContain('You are terse about otters.');
      expect(sent).toContain('Tell me about otters');
      expect(sent).toContain('0.3');
      expect(sent).toContain('50');
    }

    const stored = await readRun(ann, runId);
    expect(stored).toMatchObject({
      id: runId,
      scenario_id: scenario.id,
      title: 'Otters',
      system_prompt: 'You are terse about otters.',
      user_prompt: 'Tell me about otters [sim:tokens 6]',
      variables: { topic: 'otters' },
      parameters: { temperature: 0.3, max_tokens: 50 },
      status: 'done',
      winner: null,
    });
    expect(stored.finished_at).not.toBeNull();
    expect(stored.results).toEqual(columns.map((c) => ({ ...c, rating: null })));

    // The usage of each call is recorded as the caller's, for scenarios.
    const usage = await t.db.select().from(usageEvents).where(eq(usageEvents.user_id, ann.id));
    expect(usage.map((u) => u.source)).toEqual(['scenario', 'scenario', 'scenario', 'scenario']);

    const runs = await ann.get<ScenarioRunPage>(`/rest/v1/scenarios/${scenario.id}/runs`);
    expect(runs.body.items.map((r) => r.id)).toEqual([runId]);
    const again = await ann.get<Scenario>(`/rest/v1/scenarios/${scenario.id}`);
    expect(again.body.last_run_at).toBe(stored.created_at);
  });

  it('fails only the column whose provider has no key, naming the provider', async () => {
    const bob = await runner('keyless-column@example.com', ['openai']);
    const { columns, runId } = await streamRun(bob, {
      user_prompt: 'Hello there',
      targets: [
        { provider: 'openai', model: '' },
        { provider: 'anthropic', model: '' },
      ],
    });
    expect(columns[0]).toMatchObject({ provider: 'openai', error: null });
    expect(columns[0]!.text).toContain('Hello there');
    expect(columns[1]).toMatchObject({
      provider: 'anthropic',
      model: providers.anthropic.defaultModel,
      text: '',
      ttft_ms: null,
      output_tokens: null,
      cost_usd: null,
      error: {
        code: 'keys:missing',
        message: messageFor('keys:missing', { provider: 'Anthropic' }),
      },
    });
    const stored = await readRun(bob, runId);
    expect(stored.status).toBe('done');
    expect(stored.results[1]!.error?.code).toBe('keys:missing');
    // An unsaved setup is titled by its prompt.
    expect(stored.title).toBe('Hello there');
    expect(stored.scenario_id).toBeNull();
  });

  it('fails a column with a provider error or an unknown model while the others answer', async () => {
    const cy = await t.user('failing-column@example.com');
    await cy.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-run-test-0002' });
    await cy.request('PUT', '/rest/v1/api-keys/mistral', { api_key: 'mistral-invalid' });
    const { columns } = await streamRun(cy, {
      user_prompt: 'Compare these',
      targets: [
        { provider: 'openai', model: 'gpt-4.1' },
        { provider: 'mistral', model: '' },
        { provider: 'openai', model: 'gpt-99-imaginary' },
      ],
    });
    expect(columns[0]).toMatchObject({ model: 'gpt-4.1', error: null });
    expect(columns[1]!.error).toEqual({
      code: 'provider:auth',
      message: messageFor('provider:auth', { provider: 'Mistral' }),
    });
    expect(columns[2]).toMatchObject({
      model: 'gpt-99-imaginary',
      error: {
        code: 'provider:unknown_model',
        message: messageFor('provider:unknown_model', { provider: 'OpenAI' }),
      },
    });
  });

  it('answers every column at once as JSON with "stream": false', async () => {
    const di = await runner('json-run@example.com', ['openai']);
    const res = await send(di, {
      user_prompt: 'Say hi [sim:tokens 3]',
      targets: [
        { provider: 'openai', model: 'gpt-4o-mini' },
        { provider: 'openai', model: 'gpt-5-nano' },
      ],
      stream: false,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = scenarioRunResponseSchema.strict().parse(await res.json());
    expect(body.results.map((r) => [r.model, r.text, r.output_tokens, r.error])).toEqual([
      ['gpt-4o-mini', 'tok1 tok2 tok3', 3, null],
      ['gpt-5-nano', 'tok1 tok2 tok3', 3, null],
    ]);
    for (const r of body.results) {
      expect(Object.keys(r).sort()).toEqual(
        [
          'cost_usd',
          'error',
          'input_tokens',
          'latency_ms',
          'model',
          'output_tokens',
          'provider',
          'text',
          'ttft_ms',
        ].sort(),
      );
      expect(r.latency_ms).toEqual(expect.any(Number));
    }
    const stored = await readRun(di, body.run_id);
    expect(stored.status).toBe('done');
    expect(stored.results.map((r) => r.text)).toEqual(body.results.map((r) => r.text));
  });

  it('refuses a prompt with a variable that has no value, naming it, and stores nothing', async () => {
    const ed = await runner('variables@example.com', ['openai']);
    const setup = {
      system_prompt: 'Write in a {{tone|friendly}} tone.',
      user_prompt: 'Write about {{topic}} for {{audience}}',
      targets: [{ provider: 'openai', model: '' }],
    };
    const missing = await send(ed, { ...setup, variables: { topic: 'tides', audience: '  ' } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      code: 'prompts:missing_variable',
      error: messageFor('prompts:missing_variable', { names: ['audience'] }),
    });
    const both = await send(ed, setup);
    expect(((await both.json()) as Refusal).error).toBe(
      messageFor('prompts:missing_variable', { names: ['topic', 'audience'] }),
    );
    const runs = await t.db.select().from(scenarioRuns).where(eq(scenarioRuns.user_id, ed.id));
    expect(runs).toEqual([]);

    const { runId } = await streamRun(ed, {
      ...setup,
      variables: { topic: 'tides', audience: 'children' },
    });
    const stored = await readRun(ed, runId);
    expect(stored.user_prompt).toBe('Write about tides for children');
    expect(stored.system_prompt).toBe('Write in a friendly tone.');
    expect(stored.variables).toEqual({ topic: 'tides', audience: 'children' });
  });

  it('runs a saved scenario with fields given beside it overriding the saved ones', async () => {
    const fay = await runner('override@example.com', ['openai']);
    const scenario = (
      await fay.post<Scenario>('/rest/v1/scenarios', {
        title: 'Greeting',
        user_prompt: 'Greet {{name}} in {{language}}',
        variables: { name: 'Ada', language: 'French' },
        targets: [{ provider: 'openai', model: 'gpt-4o-mini' }],
      })
    ).body;
    const { runId, columns } = await streamRun(fay, {
      scenario_id: scenario.id,
      variables: { language: 'Welsh' },
      targets: [{ provider: 'openai', model: 'gpt-5-mini' }],
    });
    expect(columns.map((c) => c.model)).toEqual(['gpt-5-mini']);
    const stored = await readRun(fay, runId);
    expect(stored.user_prompt).toBe('Greet Ada in Welsh');
    // The saved scenario is as it was.
    const saved = await fay.get<Scenario>(`/rest/v1/scenarios/${scenario.id}`);
    expect(saved.body.variables).toEqual({ name: 'Ada', language: 'French' });
  });

  it('refuses a saved scenario with no models, and a body that is not a run, with typed 4xx', async () => {
    const gil = await runner('bad-runs@example.com', ['openai']);
    const cases: [unknown, number, string][] = [
      ['{"user_prompt": ', 400, 'request:malformed_json'],
      [{}, 400, 'bad_request:validation'],
      [{ user_prompt: 'x' }, 400, 'bad_request:validation'],
      [{ user_prompt: 'x', targets: [] }, 400, 'bad_request:validation'],
      [
        { user_prompt: 'x', targets: Array(9).fill({ provider: 'openai', model: '' }) },
        400,
        'bad_request:validation',
      ],
      [{ user_prompt: 'x', targets: [{ provider: 'skynet' }] }, 400, 'bad_request:validation'],
      [
        { user_prompt: 'x', targets: [{ provider: 'openai' }], parameters: { temperature: 3 } },
        400,
        'bad_request:validation',
      ],
      [
        { user_prompt: 'x', targets: [{ provider: 'openai' }], extra: 1 },
        400,
        'bad_request:validation',
      ],
      [{ scenario_id: 'not-a-uuid' }, 400, 'bad_request:validation'],
      [{ scenario_id: '00000000-0000-4000-8000-000000000000' }, 404, 'scenarios:not_found'],
    ];
    for (const [body, status, code] of cases) {
      const res = await send(gil, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as Refusal).code, JSON.stringify(body)).toBe(code);
    }
    // A saved scenario without models (as a cookbook entry can be) cannot run.
    const [row] = rowsOf<{ id: string }>(
      await t.db.execute(sql`
        insert into scenarios (user_id, title, user_prompt) values (${gil.id}, 'Empty', 'Hi')
        returning id
      `),
    );
    const res = await send(gil, { scenario_id: row!.id });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Refusal).code).toBe('scenarios:no_targets');
  });

  it('spends one point of the data window per run, however many models it compares', async () => {
    const hal = await runner('one-point@example.com', ['openai']);
    const pointsOf = async () =>
      Number(
        rowsOf<{ points: number }>(
          await t.db.execute(
            sql`select points from rate_limits where key = ${`data:user:${hal.id}`}`,
          ),
        )[0]?.points ?? 0,
      );
    const before = await pointsOf();
    await streamRun(hal, {
      user_prompt: 'Count me once',
      targets: Array(4).fill({ provider: 'openai', model: '' }),
    });
    expect((await pointsOf()) - before).toBe(1);
  });

  it('keeps what arrived when the client goes away, and ends the run as done', async () => {
    const ivy = await runner('leaver@example.com', ['openai']);
    const controller = new AbortController();
    const res = await send(
      ivy,
      {
        user_prompt: 'Go on forever [sim:hang 2]',
        targets: [
          { provider: 'openai', model: 'gpt-4o-mini' },
          { provider: 'openai', model: 'gpt-4.1' },
        ],
      },
      controller.signal,
    );
    const reader = res.body!.getReader();
    let seen = '';
    while ((seen.match(/"type":"delta"/g) ?? []).length < 4) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended early: ${seen}`);
      seen += new TextDecoder().decode(value);
    }
    const runId = (JSON.parse(seen.split('\n')[0]!) as { run_id: string }).run_id;
    controller.abort();
    await reader.cancel().catch(() => {});
    await waitFor(async () => (await readRun(ivy, runId)).status === 'done');
    const stored = await readRun(ivy, runId);
    for (const column of stored.results) {
      expect(column.text).not.toBe('');
      expect(column.error?.code).toBe('provider:interrupted');
      expect(column.latency_ms).toEqual(expect.any(Number));
    }
  });

  it('reports a run left running for over ten minutes as interrupted', async () => {
    const jo = await runner('stale@example.com', ['openai']);
    const { runId } = await streamRun(jo, {
      user_prompt: 'Old run',
      targets: [{ provider: 'openai', model: '' }],
    });
    await t.db
      .update(scenarioRuns)
      .set({ status: 'running', finished_at: null, created_at: new Date(Date.now() - 11 * 60_000) })
      .where(eq(scenarioRuns.id, runId));
    expect((await readRun(jo, runId)).status).toBe('interrupted');
  });
});

describe('the daily quota', () => {
  it('runs the columns the quota allows and fails the others with quota:exceeded', async () => {
    const plan = await createPlan({ name: 'Two a day', daily_prompt_limit: 2 });
    const kim = await runner('quota-run@example.com', ['openai']);
    await t.db.update(profiles).set({ plan_id: plan.id }).where(eq(profiles.id, kim.id));
    const today = async () =>
      (
        await t.db
          .select()
          .from(promptUsage)
          .where(and(eq(promptUsage.user_id, kim.id), eq(promptUsage.date, utcDate(new Date()))))
      )[0]?.count ?? 0;

    const { columns } = await streamRun(kim, {
      user_prompt: 'Four at once',
      targets: Array(4).fill({ provider: 'openai', model: '' }),
    });
    expect(columns.map((c) => c.error?.code ?? 'ok')).toEqual([
      'ok',
      'ok',
      'quota:exceeded',
      'quota:exceeded',
    ]);
    expect(columns[2]!.error!.message).toContain('Two a day');
    expect(await today()).toBe(2);

    const res = await send(kim, {
      user_prompt: 'One more',
      targets: [{ provider: 'openai', model: '' }],
      stream: false,
    });
    expect(res.status).toBe(200);
    const body = scenarioRunResponseSchema.parse(await res.json());
    expect(body.results[0]!.error?.code).toBe('quota:exceeded');
    expect(await today()).toBe(2);
  });
});

describe('ratings and test cases', () => {
  it('rates columns, picks a winner, and refuses a column the run does not have', async () => {
    const lea = await runner('rater@example.com', ['openai']);
    const { runId } = await streamRun(lea, {
      user_prompt: 'Rate us',
      targets: [
        { provider: 'openai', model: 'gpt-4o-mini' },
        { provider: 'openai', model: 'gpt-4.1' },
      ],
    });
    const rated = await lea.patch<ScenarioRun>(`/rest/v1/scenario-runs/${runId}`, {
      ratings: [5, 2],
      winner: 0,
    });
    expect(rated.status).toBe(200);
    expect(rated.body.results.map((r) => r.rating)).toEqual([5, 2]);
    expect(rated.body.winner).toBe(0);
    // Columns left out keep their rating; null clears one.
    const changed = await lea.patch<ScenarioRun>(`/rest/v1/scenario-runs/${runId}`, {
      ratings: [null],
    });
    expect(changed.body.results.map((r) => r.rating)).toEqual([null, 2]);
    expect(changed.body.winner).toBe(0);
    expect(changed.body.results[1]!.text).toBe(rated.body.results[1]!.text);
    const cleared = await lea.patch<ScenarioRun>(`/rest/v1/scenario-runs/${runId}`, {
      winner: null,
    });
    expect(cleared.body.winner).toBeNull();

    for (const body of [{ winner: 2 }, { ratings: [1, 2, 3] }]) {
      const res = await lea.patch<Refusal>(`/rest/v1/scenario-runs/${runId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('scenarios:bad_target');
    }
    for (const body of [{ ratings: [6] }, { winner: -1 }, {}, { ratings: [1], extra: 1 }]) {
      const res = await lea.patch<Refusal>(`/rest/v1/scenario-runs/${runId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('bad_request:validation');
    }
    expect((await readRun(lea, runId)).results.map((r) => r.rating)).toEqual([null, 2]);
  });

  it('saves a column as a test case and lists it', async () => {
    const max = await runner('cases@example.com', ['openai']);
    const scenario = (
      await max.post<Scenario>('/rest/v1/scenarios', {
        title: 'Haiku',
        system_prompt: 'Be brief.',
        user_prompt: 'A haiku about {{season}} [sim:tokens 4]',
        variables: { season: 'spring' },
        targets: [
          { provider: 'openai', model: 'gpt-4o-mini' },
          { provider: 'openai', model: 'gpt-4.1' },
        ],
      })
    ).body;
    const { runId, columns } = await streamRun(max, { scenario_id: scenario.id });

    const saved = await max.post<TestCase>(`/rest/v1/scenario-runs/${runId}/test-cases`, {
      target: 1,
    });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({
      name: 'Haiku — openai',
      system_prompt: 'Be brief.',
      prompt: 'A haiku about spring [sim:tokens 4]',
      variables: { season: 'spring' },
      expected_output: columns[1]!.text,
      scenario_id: scenario.id,
      scenario_run_id: runId,
      provider: 'openai',
      model: 'gpt-4.1',
    });
    const named = await max.post<TestCase>(`/rest/v1/scenario-runs/${runId}/test-cases`, {
      target: 0,
      name: 'Spring haiku',
      expected_output: 'Something else',
    });
    expect(named.body).toMatchObject({ name: 'Spring haiku', expected_output: 'Something else' });

    const bad = await max.post<Refusal>(`/rest/v1/scenario-runs/${runId}/test-cases`, {
      target: 2,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('scenarios:bad_target');
    const invalid = await max.post<Refusal>(`/rest/v1/scenario-runs/${runId}/test-cases`, {
      target: 'one',
    });
    expect(invalid.body.code).toBe('bad_request:validation');

    const list = await max.get<TestCaseList>('/rest/v1/test-cases');
    expect(list.body.items.map((c) => c.name)).toEqual(['Spring haiku', 'Haiku — openai']);
    const one = await max.get<TestCaseList>('/rest/v1/test-cases?limit=1');
    expect(one.body.items.map((c) => c.name)).toEqual(['Spring haiku']);
  });
});

describe('isolation', () => {
  it("gives a second user 404 for the first user's scenarios, runs and test cases", async () => {
    const owner = await runner('run-owner@example.com', ['openai']);
    const other = await runner('run-other@example.com', ['openai']);
    const scenario = (
      await owner.post<Scenario>('/rest/v1/scenarios', {
        title: 'Private',
        user_prompt: 'Mine',
        targets: [{ provider: 'openai', model: '' }],
      })
    ).body;
    const { runId } = await streamRun(owner, { scenario_id: scenario.id });
    await owner.post(`/rest/v1/scenario-runs/${runId}/test-cases`, { target: 0 });

    const byScenario = await send(other, { scenario_id: scenario.id });
    expect(byScenario.status).toBe(404);
    expect(((await byScenario.json()) as Refusal).code).toBe('scenarios:not_found');
    const refusals: [string, string, unknown, string][] = [
      ['GET', `/rest/v1/scenarios/${scenario.id}`, undefined, 'scenarios:not_found'],
      ['GET', `/rest/v1/scenarios/${scenario.id}/runs`, undefined, 'scenarios:not_found'],
      ['PATCH', `/rest/v1/scenarios/${scenario.id}`, { title: 'Taken' }, 'scenarios:not_found'],
      ['DELETE', `/rest/v1/scenarios/${scenario.id}`, undefined, 'scenarios:not_found'],
      ['GET', `/rest/v1/scenario-runs/${runId}`, undefined, 'scenarios:run_not_found'],
      ['PATCH', `/rest/v1/scenario-runs/${runId}`, { winner: 0 }, 'scenarios:run_not_found'],
      [
        'POST',
        `/rest/v1/scenario-runs/${runId}/test-cases`,
        { target: 0 },
        'scenarios:run_not_found',
      ],
      ['GET', '/rest/v1/scenario-runs/not-a-uuid', undefined, 'scenarios:run_not_found'],
    ];
    for (const [method, url, body, code] of refusals) {
      const res = await other.request<Refusal>(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.code, `${method} ${url}`).toBe(code);
    }
    expect((await other.get<TestCaseList>('/rest/v1/test-cases')).body.items).toEqual([]);
    expect((await other.get<{ items: unknown[] }>('/rest/v1/scenarios')).body.items).toEqual([]);

    // Nothing changed for the owner.
    const mine = await owner.get<Scenario>(`/rest/v1/scenarios/${scenario.id}`);
    expect(mine.body.title).toBe('Private');
    expect((await readRun(owner, runId)).winner).toBeNull();
    expect((await owner.get<TestCaseList>('/rest/v1/test-cases')).body.items).toHaveLength(1);
  });
});
