import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '@chorus/shared/api/agents';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import type { z } from 'zod';
import type {
  createTestCaseSchema,
  CreatedAccessToken,
  TestRunEstimate,
  TestRunStatusBody,
  TestSet,
  TestSetCase,
  TestTarget,
} from '@chorus/shared/api/test-runs';
import { emailMessages } from '@chorus/shared/email';
import { messageFor } from '@chorus/shared/error-catalogue';
import { TestRunsRepository } from '../../../db/repositories/test-runs.ts';
import { TestSetsRepository } from '../../../db/repositories/test-sets.ts';
import { testResults, testRuns } from '../../../db/schema/index.ts';
import { recordUnsubscribe } from '../../../db/repositories/unsubscribes.ts';
import { unsubscribedReason } from '../../../email/transport.ts';
import { recoverStoppedInstances } from '../../../jobs/recover-stopped-instances.ts';
import { executeTestRun } from '../../../test-runner/engine.ts';
import { planCase } from '../../../test-runner/plan.ts';
import { resolveSubject } from '../../../test-runner/subject.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };
type Status = TestRunStatusBody;
type CreateTestCase = z.input<typeof createTestCaseSchema>;

let t: TestApp;
let ann: Client;
let bob: Client;

const gpt: TestTarget = { provider: 'openai', model: 'gpt-5-mini' };
const claude: TestTarget = { provider: 'anthropic', model: 'claude-haiku-4-5' };

const withKeys = async (email: string) => {
  const u = await t.user(email);
  for (const [provider, key] of [
    ['openai', 'sk-openai-test-runs'],
    ['anthropic', 'sk-ant-test-runs'],
  ] as const) {
    const res = await u.request('PUT', `/rest/v1/api-keys/${provider}`, { api_key: key });
    expect(res.status).toBe(200);
  }
  return u;
};

/** A custom AI under test (each case's input is the message) and a set of `cases` on it. */
const makeSet = async (who: Client, name: string, cases: CreateTestCase[], notify = true) => {
  const ai = await who.post<CustomAi>('/rest/v1/custom-ais', {
    name: `${name} assistant`,
    system_prompt: 'Answer briefly.',
    provider: 'openai',
  });
  expect(ai.status).toBe(201);
  const set = await who.post<TestSet>('/rest/v1/test-sets', {
    name,
    subject: { kind: 'custom_ai', id: ai.body.id },
    notify,
  });
  expect(set.status).toBe(201);
  const made: TestSetCase[] = [];
  for (const c of cases) {
    const res = await who.post<TestSetCase>(`/rest/v1/test-sets/${set.body.id}/cases`, c);
    expect(res.status).toBe(201);
    made.push(res.body);
  }
  return { set: set.body, cases: made, ai: ai.body };
};

const start = (who: Client, body: Record<string, unknown>) =>
  who.post<Status & Refusal>('/functions/v1/test-run', body);

const ended = (run: Status) => !['queued', 'running'].includes(run.status);

/** Polls the run until `done` holds (the job runs it in the background). */
const until = async (who: Client, runId: string, done: (run: Status) => boolean = ended) => {
  for (let i = 0; i < 300; i++) {
    const res = await who.get<Status>(`/functions/v1/test-run/${runId}`);
    expect(res.status).toBe(200);
    if (done(res.body)) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} never got there`);
};

const promptsToday = async (who: Client) =>
  (await who.get<{ count: number }>('/rest/v1/profile/usage')).body.count;

const verdict = { pass: true, score: 0.9, reason: 'A proper verdict' };
const threeCases: CreateTestCase[] = [
  {
    name: 'Tides',
    input: 'Tell me about tides',
    assertions: [
      { type: 'contains', values: ['tides'], mode: 'any', ignore_case: true },
      { type: 'regex', pattern: '^Hello from', flags: '' },
    ],
  },
  {
    name: 'Verdict',
    input: `Grade this [sim:json ${JSON.stringify(verdict)}]`,
    assertions: [
      { type: 'is_json' },
      {
        type: 'json_schema',
        schema: { type: 'object', required: ['pass', 'score'] },
      },
      {
        type: 'judge',
        rubric: 'Is it a verdict?',
        provider: 'openai',
        model: null,
        pass_score: 0.7,
      },
    ],
  },
  {
    name: 'Busy',
    input: 'Slow down [sim:429-times 2]',
    assertions: [
      { type: 'contains', values: ['Slow down'], mode: 'all', ignore_case: false },
      { type: 'contains', values: ['banana'], mode: 'any', ignore_case: true },
    ],
  },
];

beforeAll(async () => {
  t = await startTestApp({ providerSim: true, jobs: true });
  ann = await withKeys('test-runs-ann@example.com');
  bob = await withKeys('test-runs-bob@example.com');
});
afterAll(() => t.close());

describe('test runs', () => {
  let first: Status;
  let made: Awaited<ReturnType<typeof makeSet>>;

  it('runs 3 cases × 2 targets × 2 repeats as a job: verdicts, 429 backoff, quota and the e-mail', async () => {
    made = await makeSet(ann, 'Support replies', threeCases);
    const before = await promptsToday(ann);
    const res = await start(ann, {
      test_set_id: made.set.id,
      targets: [gpt, claude],
      repeats: 2,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: 'queued',
      total: 12,
      done: 0,
      source: 'app',
      summary: null,
      url: `${TEST_APP_URL}/test-runner/runs/${res.body.id}`,
    });
    expect(res.body.estimated_cost_usd).toBeGreaterThan(0);

    first = await until(ann, res.body.id);
    expect(first).toMatchObject({ status: 'done', done: 12, total: 12, error: null });
    expect(first.started_at).not.toBeNull();
    expect(first.summary).toMatchObject({
      total: 12,
      passed: 8,
      failed: 4,
      errors: 0,
      all_passed: false,
      baseline_run_id: null,
      regressions: 0,
      improvements: 0,
    });
    expect(first.pass_rate).toBeCloseTo(8 / 12);
    expect(first.summary!.input_tokens).toBeGreaterThan(0);
    expect(first.summary!.cost_usd).toBeGreaterThan(0);

    // Every call and every judge call counts a prompt; a call retried after a 429 counts once.
    expect((await promptsToday(ann)) - before).toBe(12 + 4);

    const rows = await t.db.select().from(testResults).where(eq(testResults.run_id, first.id));
    expect(rows).toHaveLength(12);
    const of = (name: string) => {
      const id = made.cases.find((c) => c.name === name)!.id;
      return rows.filter((r) => r.case_id === id);
    };
    for (const r of of('Tides')) {
      expect(r).toMatchObject({ passed: true, error: null });
      expect(r.output).toContain('Tell me about tides');
      expect(r.latency_ms).toEqual(expect.any(Number));
      expect((r.assertions as { passed: boolean }[]).map((a) => a.passed)).toEqual([true, true]);
    }
    for (const r of of('Verdict')) {
      expect(JSON.parse(r.output)).toEqual(verdict);
      expect(r.assertions).toEqual([
        expect.objectContaining({ type: 'is_json', passed: true }),
        expect.objectContaining({ type: 'json_schema', passed: true }),
        { type: 'judge', passed: true, reason: 'A proper verdict', score: 0.9 },
      ]);
    }
    // Two 429s (Retry-After: 1) along the way, and still every call answered.
    for (const r of of('Busy')) {
      expect(r).toMatchObject({ passed: false, error: null });
      expect(r.assertions).toEqual([
        expect.objectContaining({ type: 'contains', passed: true }),
        expect.objectContaining({ type: 'contains', passed: false }),
      ]);
    }
    expect(new Set(rows.map((r) => `${r.case_id}|${r.target}|${r.repeat}`)).size).toBe(12);
    // The judge's tokens count in the run's totals, beside the calls under test.
    const callTokens = rows.reduce((n, r) => n + r.input_tokens, 0);
    expect(first.summary!.input_tokens).toBeGreaterThan(callTokens);

    expect(first.notification).toEqual({
      sent: true,
      message: emailMessages.testRunNotificationSent,
    });
    const [mail] = await t.deliveredTo(ann.email, 'test_run');
    expect(mail).toBeDefined();
    expect(mail!.subject).toBe('Test run: Support replies — 67% passed');
    expect(mail!.text).toContain('8 of 12 passed');
    expect(mail!.text).toContain('OpenAI · gpt-5-mini: 67%');
    expect(mail!.text).toContain(`${TEST_APP_URL}/test-runner/runs/${first.id}`);
  });

  it('marks a regression against the previous run after a case’s prompt changed', async () => {
    const tides = made.cases.find((c) => c.name === 'Tides')!;
    const edit = await ann.patch(`/rest/v1/test-sets/${made.set.id}/cases/${tides.id}`, {
      input: 'Tell me about the moon',
    });
    expect(edit.status).toBe(200);
    const res = await start(ann, { test_set_id: made.set.id, targets: [gpt, claude], repeats: 2 });
    const second = await until(ann, res.body.id);
    expect(second.summary).toMatchObject({
      baseline_run_id: first.id,
      regressions: 2,
      improvements: 0,
      passed: 4,
    });
    const mails = await t.deliveredTo(ann.email, 'test_run');
    expect(mails.at(-1)!.subject).toBe('Test run: Support replies — 33% passed, 2 regressions');
  });

  it('starts and polls with a personal access token, with no cookie and no Origin', async () => {
    const created = await ann.post<CreatedAccessToken>('/rest/v1/access-tokens', { name: 'CI' });
    expect(created.status).toBe(201);
    const { set } = await makeSet(ann, 'From CI', [{ name: 'One', input: 'Ping' }], false);
    const call = async <T>(method: string, url: string, body?: unknown) => {
      const res = await t.app.request(url, {
        method,
        headers: {
          authorization: `Bearer ${created.body.token}`,
          'x-forwarded-for': '203.0.113.9',
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as T };
    };
    const started = await call<Status>('POST', '/functions/v1/test-run', {
      test_set_id: set.id,
      targets: [gpt],
    });
    expect(started.status).toBe(202);
    expect(started.body.source).toBe('token');
    let run = started.body;
    for (let i = 0; i < 300 && !ended(run); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      run = (await call<Status>('GET', `/functions/v1/test-run/${run.id}`)).body;
    }
    expect(run).toMatchObject({ status: 'done', done: 1, notification: null });
    expect(run.summary).toMatchObject({ all_passed: true, regressions: 0 });
    const estimate = await call<TestRunEstimate>('POST', '/functions/v1/test-run/estimate', {
      test_set_id: set.id,
      targets: [gpt],
    });
    expect(estimate.status).toBe(200);
    const wrong = await t.app.request(`/functions/v1/test-run/${run.id}`, {
      headers: { authorization: 'Bearer chorus_pat_not-a-real-token' },
    });
    expect(wrong.status).toBe(401);
    // No mail: the set does not ask for one.
    expect((await t.deliveredTo(ann.email, 'test_run')).length).toBe(2);
  });

  it('estimates calls, judge calls, tokens, cost, prompts left and missing keys', async () => {
    const res = await ann.post<TestRunEstimate>('/functions/v1/test-run/estimate', {
      test_set_id: made.set.id,
      targets: [gpt, claude, { provider: 'mistral', model: 'mistral-small-latest' }],
      repeats: 3,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      calls: 27,
      judge_calls: 9,
      missing_keys: ['mistral'],
      prompts_left_today: null,
    });
    expect(res.body.estimated_input_tokens).toBeGreaterThan(0);
    expect(res.body.estimated_output_tokens).toBeGreaterThanOrEqual(27 * 300 - 1);
    expect(res.body.estimated_cost_usd).toBeGreaterThan(0);
  });

  it('cancels a run mid-way, keeping the results stored, and ends it cancelled', async () => {
    const { set } = await makeSet(ann, 'Hangs', [
      { name: 'Quick', input: 'Quick one' },
      { name: 'Stuck', input: 'Wait for ever [sim:hang]' },
    ]);
    const res = await start(ann, { test_set_id: set.id, targets: [gpt] });
    await until(ann, res.body.id, (r) => r.done >= 1);
    const cancel = await ann.post<Status>(`/functions/v1/test-run/${res.body.id}/cancel`);
    expect(cancel.status).toBe(200);
    const run = await until(ann, res.body.id);
    expect(run).toMatchObject({ status: 'cancelled', done: 1, total: 2 });
    expect(run.summary).toMatchObject({ total: 1, passed: 1, all_passed: false });
    expect(run.notification).toBeNull();
    const again = await ann.post<Refusal>(`/functions/v1/test-run/${res.body.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('test_runs:finished');
  });

  it('resumes a run left running: only the cells not stored are called, none twice', async () => {
    const { set, cases } = await makeSet(ann, 'Resumed', [{ name: 'Echo', input: 'Echo me' }]);
    const subject = await resolveSubject(t.db, ann.id, { kind: 'custom_ai', id: set.subject.id });
    const repo = new TestRunsRepository(t.db, ann.id);
    const run = await repo.create({
      test_set_id: set.id,
      name: set.name,
      source: 'app',
      targets: [gpt],
      repeats: 3,
      plan: { subject: subject!, cases: cases.map(planCase) },
      total: 3,
      estimated_cost_usd: null,
    });
    const stored = {
      case_id: cases[0]!.id,
      target: 0,
      repeat: 2,
      input: 'Echo me',
      output: 'stored before the restart',
      error: null,
      passed: true,
      assertions: [],
      latency_ms: 5,
      input_tokens: 1,
      output_tokens: 1,
      cost_usd: null,
    };
    expect(await repo.insertResults(run.id, [stored])).toBe(1);
    expect(await repo.insertResults(run.id, [stored])).toBe(0);
    // Its server stopped a while ago, mid-run.
    await t.db
      .update(testRuns)
      .set({ status: 'running', updated_at: new Date(Date.now() - 10 * 60_000) })
      .where(eq(testRuns.id, run.id));
    const asked = t.sim.requests.length;
    await executeTestRun(t.deps, run.id, ann.id);
    expect(t.sim.requests.length - asked).toBe(2);
    const rows = await t.db.select().from(testResults).where(eq(testResults.run_id, run.id));
    expect(rows.map((r) => r.repeat).sort()).toEqual([1, 2, 3]);
    expect(rows.find((r) => r.repeat === 2)!.output).toBe('stored before the restart');
    const done = await repo.get(run.id);
    expect(done).toMatchObject({ status: 'done', done: 3, passed: 3 });
    // A second delivery of the job finds it ended and calls nothing.
    await executeTestRun(t.deps, run.id, ann.id);
    expect(t.sim.requests.length - asked).toBe(2);
  });

  it('says so when the e-mail could not go: the recipient unsubscribed', async () => {
    await recordUnsubscribe(t.db, bob.email);
    const { set } = await makeSet(bob, 'Quiet', [{ name: 'One', input: 'One' }]);
    const res = await start(bob, { test_set_id: set.id, targets: [gpt] });
    const run = await until(bob, res.body.id);
    expect(run.notification).toEqual({
      sent: false,
      message: emailMessages.testRunNotificationFailed(unsubscribedReason([bob.email])),
    });
  });

  it('goes on with a run the sweep finds left by a stopped instance', async () => {
    const { set, cases } = await makeSet(ann, 'Swept', [{ name: 'Echo', input: 'Swept' }], false);
    const subject = await resolveSubject(t.db, ann.id, { kind: 'custom_ai', id: set.subject.id });
    const run = await new TestRunsRepository(t.db, ann.id).create({
      test_set_id: set.id,
      name: set.name,
      source: 'app',
      targets: [gpt],
      repeats: 1,
      plan: { subject: subject!, cases: cases.map(planCase) },
      total: 1,
      estimated_cost_usd: null,
    });
    // Its instance has no lease (it stopped).
    await t.db
      .update(testRuns)
      .set({ status: 'running', instance_id: randomUUID() })
      .where(eq(testRuns.id, run.id));
    await recoverStoppedInstances(t.deps);
    expect(await until(ann, run.id)).toMatchObject({ status: 'done', done: 1 });
  });

  it('stops the run as failed when the key is missing, rather than failing every cell', async () => {
    const { set } = await makeSet(ann, 'No key', [
      { name: 'A', input: 'a' },
      { name: 'B', input: 'b' },
    ]);
    const res = await start(ann, {
      test_set_id: set.id,
      targets: [{ provider: 'mistral', model: 'mistral-small-latest' }],
      repeats: 2,
    });
    const run = await until(ann, res.body.id);
    expect(run.status).toBe('failed');
    expect(run.error).toBe(messageFor('keys:missing', { provider: 'Mistral' }));
    expect(run.done).toBe(0);
  });

  it('fails an agent’s call whose tool needs approval: unattended runs never approve tools', async () => {
    const agent = await ann.post<Agent>('/rest/v1/agents', {
      name: 'Careful Calculator',
      instructions: 'Use your tools.',
      provider: 'openai',
      tools: [{ tool: 'builtin:calculator', approval: 'always' }],
    });
    expect(agent.status).toBe(201);
    const set = await ann.post<TestSet>('/rest/v1/test-sets', {
      name: 'Agent',
      subject: { kind: 'agent', id: agent.body.id },
      notify: false,
    });
    await ann.post(`/rest/v1/test-sets/${set.body.id}/cases`, {
      name: 'Sum',
      input: 'What is 6*7? [sim:tool calculator {"expression":"6*7"}]',
    });
    const res = await start(ann, { test_set_id: set.body.id, targets: [gpt] });
    const run = await until(ann, res.body.id);
    expect(run).toMatchObject({ status: 'done', done: 1 });
    const [row] = await t.db.select().from(testResults).where(eq(testResults.run_id, run.id));
    expect(row!.passed).toBe(false);
    expect(row!.error).toContain('needs approval; unattended runs never approve tools');
  });
});

describe('refusals', () => {
  it('refuses a set with no cases, a subject gone, too many calls and too many runs at once', async () => {
    const cleo = await withKeys('test-runs-cleo@example.com');
    const empty = await makeSet(cleo, 'Empty', []);
    const none = await start(cleo, { test_set_id: empty.set.id, targets: [gpt] });
    expect(none.status).toBe(422);
    expect(none.body.code).toBe('test_runs:no_cases');

    const gone = await makeSet(cleo, 'Gone', [{ name: 'x', input: 'x' }]);
    expect((await cleo.del(`/rest/v1/custom-ais/${gone.ai.id}`)).status).toBe(204);
    const orphan = await start(cleo, { test_set_id: gone.set.id, targets: [gpt] });
    expect(orphan.status).toBe(422);
    expect(orphan.body.code).toBe('test_sets:subject_not_found');

    const big = await makeSet(cleo, 'Big', []);
    const inserted = await new TestSetsRepository(t.db, cleo.id).insertCases(
      big.set.id,
      Array.from({ length: 101 }, (_, i) => ({
        name: `Case ${i}`,
        input: 'x',
        variables: {},
        expected_output: null,
        assertions: [],
      })),
    );
    expect(Array.isArray(inserted)).toBe(true);
    const targets = [gpt, claude, gpt, claude, gpt, claude];
    const large = await start(cleo, { test_set_id: big.set.id, targets, repeats: 10 });
    expect(large.status).toBe(422);
    expect(large.body.code).toBe('test_runs:too_large');

    const small = await makeSet(cleo, 'Small', [{ name: 'x', input: 'x' }]);
    const repo = new TestRunsRepository(t.db, cleo.id);
    for (let i = 0; i < 2; i++) {
      await repo.create({
        test_set_id: small.set.id,
        name: 'Waiting',
        source: 'app',
        targets: [gpt],
        repeats: 1,
        plan: {},
        total: 1,
        estimated_cost_usd: null,
      });
    }
    const busy = await start(cleo, { test_set_id: small.set.id, targets: [gpt] });
    expect(busy.status).toBe(429);
    expect(busy.body.code).toBe('test_runs:too_many_runs');
  });

  it('refuses bad input with a 400, never a 500', async () => {
    const garbage = await ann.request<Refusal>('POST', '/functions/v1/test-run', 'not json');
    expect(garbage.status).toBe(400);
    const nul = await ann.request<Refusal>(
      'POST',
      '/functions/v1/test-run',
      '{"test_set_id":"\\u0000","targets":[]}',
    );
    expect(nul.status).toBe(400);
    const shapes = [
      {},
      { test_set_id: 'nope', targets: [gpt] },
      { test_set_id: '00000000-0000-4000-8000-000000000000', targets: [] },
      { test_set_id: '00000000-0000-4000-8000-000000000000', targets: [gpt], repeats: 11 },
      { test_set_id: '00000000-0000-4000-8000-000000000000', targets: [{ provider: 'x' }] },
      { test_set_id: '00000000-0000-4000-8000-000000000000', targets: [gpt], extra: 1 },
    ];
    for (const body of shapes) {
      const res = await start(ann, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await ann.get<Refusal>('/functions/v1/test-run/not-a-uuid')).status).toBe(404);
    expect((await t.client().get<Refusal>('/functions/v1/test-run/not-a-uuid')).status).toBe(401);
  });

  it('never lets a second user read, cancel or start on the first user’s runs and sets', async () => {
    const { set } = await makeSet(ann, 'Private', [{ name: 'Hang', input: 'x [sim:hang]' }]);
    const res = await start(ann, { test_set_id: set.id, targets: [gpt] });
    expect(res.status).toBe(202);
    const id = res.body.id;
    const status = await bob.get<Refusal>(`/functions/v1/test-run/${id}`);
    expect(status.status).toBe(404);
    expect(status.body.code).toBe('test_runs:not_found');
    const cancel = await bob.post<Refusal>(`/functions/v1/test-run/${id}/cancel`);
    expect(cancel.status).toBe(404);
    const startOn = await start(bob, { test_set_id: set.id, targets: [gpt] });
    expect(startOn.status).toBe(404);
    expect(startOn.body.code).toBe('test_sets:not_found');
    const estimate = await bob.post<Refusal>('/functions/v1/test-run/estimate', {
      test_set_id: set.id,
      targets: [gpt],
    });
    expect(estimate.status).toBe(404);
    // Still ann's, still going: she cancels it.
    expect((await ann.post(`/functions/v1/test-run/${id}/cancel`)).status).toBe(200);
    expect((await until(ann, id)).status).toBe('cancelled');
  });
});
