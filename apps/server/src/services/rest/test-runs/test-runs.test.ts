import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import type {
  CreatedAccessToken,
  TestResult,
  TestRunList,
  TestRunMatrix,
  TestRunStatusBody,
  TestSet,
  TestSetCase,
  TestTarget,
} from '@chorus/shared/api/test-runs';
import { TestRunsRepository } from '../../../db/repositories/test-runs.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };
type Status = TestRunStatusBody;

let t: TestApp;
let ann: Client;
let bob: Client;

const gpt: TestTarget = { provider: 'openai', model: 'gpt-5-mini' };
const claude: TestTarget = { provider: 'anthropic', model: 'claude-haiku-4-5' };

const withKeys = async (email: string) => {
  const u = await t.user(email);
  await u.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-openai-runs' });
  await u.request('PUT', '/rest/v1/api-keys/anthropic', { api_key: 'sk-ant-runs' });
  return u;
};

const ended = (run: Status) => !['queued', 'running'].includes(run.status);

const runToEnd = async (who: Client, body: Record<string, unknown>) => {
  const res = await who.post<Status>('/functions/v1/test-run', body);
  expect(res.status).toBe(202);
  for (let i = 0; i < 300; i++) {
    const run = (await who.get<Status>(`/functions/v1/test-run/${res.body.id}`)).body;
    if (ended(run)) return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the run never ended');
};

let set: TestSet;
let cases: TestSetCase[];
let first: Status;
let second: Status;

beforeAll(async () => {
  t = await startTestApp({ providerSim: true, jobs: true });
  ann = await withKeys('test-run-matrix-ann@example.com');
  bob = await withKeys('test-run-matrix-bob@example.com');
  const ai = await ann.post<CustomAi>('/rest/v1/custom-ais', {
    name: 'Helper',
    provider: 'openai',
  });
  set = (
    await ann.post<TestSet>('/rest/v1/test-sets', {
      name: 'Matrix',
      subject: { kind: 'custom_ai', id: ai.body.id },
      notify: false,
    })
  ).body;
  cases = [];
  for (const c of [
    {
      name: '@Formula',
      input: '=SUM(A1) "quoted", text',
      assertions: [{ type: 'contains', values: ['SUM'] }],
    },
    {
      name: 'Fails',
      input: 'Plain',
      assertions: [{ type: 'regex', pattern: '^never' }, { type: 'is_json' }],
    },
  ]) {
    cases.push((await ann.post<TestSetCase>(`/rest/v1/test-sets/${set.id}/cases`, c)).body);
  }
  // First on [gpt, claude]; then, with the first case changed, on [claude, gpt].
  first = await runToEnd(ann, { test_set_id: set.id, targets: [gpt, claude], repeats: 2 });
  await ann.patch(`/rest/v1/test-sets/${set.id}/cases/${cases[0]!.id}`, { input: 'Plain too' });
  second = await runToEnd(ann, { test_set_id: set.id, targets: [claude, gpt], repeats: 1 });
});
afterAll(() => t.close());

describe('/rest/v1/test-runs', () => {
  it('lists runs newest first, by set, page by page', async () => {
    const page = await ann.get<TestRunList>(`/rest/v1/test-runs?limit=1`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((r) => r.id)).toEqual([second.id]);
    const next = await ann.get<TestRunList>(
      `/rest/v1/test-runs?limit=1&cursor=${page.body.next_cursor}`,
    );
    expect(next.body.items.map((r) => r.id)).toEqual([first.id]);
    expect(next.body.next_cursor).toBeNull();
    const bySet = await ann.get<TestRunList>(`/rest/v1/test-runs?test_set_id=${set.id}`);
    expect(bySet.body.items).toHaveLength(2);
    expect(bySet.body.items[1]).toMatchObject({
      status: 'done',
      done: 8,
      total: 8,
      pass_rate: 0.5,
    });
    const bad = await ann.get<Refusal>('/rest/v1/test-runs?cursor=bm90LWEtY3Vyc29y');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('test_runs:bad_cursor');
    expect((await bob.get<TestRunList>('/rest/v1/test-runs')).body.items).toEqual([]);
  });

  it('builds the matrix of cases × targets with totals, and compares by provider and model', async () => {
    const res = await ann.get<TestRunMatrix>(`/rest/v1/test-runs/${first.id}`);
    expect(res.status).toBe(200);
    expect(res.body.cases.map((c) => c.name)).toEqual(['@Formula', 'Fails']);
    expect(res.body.cells).toHaveLength(4);
    const [f0, f1, x0] = res.body.cells;
    expect(f0).toMatchObject({
      case_id: cases[0]!.id,
      target: 0,
      runs: 2,
      passed: 2,
      pass_rate: 1,
    });
    expect(f1).toMatchObject({ target: 1, runs: 2, pass_rate: 1, change: null });
    expect(f0!.latency_p50_ms).toEqual(expect.any(Number));
    expect(f0!.cost_usd).toBeGreaterThan(0);
    expect(x0!.assertions).toEqual([
      { type: 'regex', passed: 0, total: 2, reason: 'Does not match /^never/' },
      expect.objectContaining({ type: 'is_json', passed: 0, total: 2 }),
    ]);
    expect(res.body.totals).toEqual([
      expect.objectContaining({ target: 0, runs: 4, passed: 2, pass_rate: 0.5 }),
      expect.objectContaining({ target: 1, runs: 4, passed: 2, pass_rate: 0.5 }),
    ]);
    expect(res.body.compared_to).toBeNull();

    const compared = await ann.get<TestRunMatrix>(
      `/rest/v1/test-runs/${second.id}?compare_to=${first.id}`,
    );
    expect(compared.status).toBe(200);
    expect(compared.body.compared_to).toMatchObject({ id: first.id });
    const cell = (caseId: string, target: number) =>
      compared.body.cells.find((c) => c.case_id === caseId && c.target === target)!;
    // Target 0 is now claude, which was target 1 before.
    expect(cell(cases[0]!.id, 0)).toMatchObject({ change: 'regressed', previous_pass_rate: 1 });
    expect(cell(cases[1]!.id, 1)).toMatchObject({ change: 'same', previous_pass_rate: 0 });
    expect(second.summary).toMatchObject({ baseline_run_id: first.id, regressions: 2 });
  });

  it('refuses to compare with a run of another set, or one that is not yours', async () => {
    const ai = await ann.post<CustomAi>('/rest/v1/custom-ais', {
      name: 'Other',
      provider: 'openai',
    });
    const other = await ann.post<TestSet>('/rest/v1/test-sets', {
      name: 'Other',
      subject: { kind: 'custom_ai', id: ai.body.id },
      notify: false,
    });
    await ann.post(`/rest/v1/test-sets/${other.body.id}/cases`, { name: 'x', input: 'x' });
    const elsewhere = await runToEnd(ann, { test_set_id: other.body.id, targets: [gpt] });
    const res = await ann.get<Refusal>(`/rest/v1/test-runs/${first.id}?compare_to=${elsewhere.id}`);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('test_runs:other_set');
    const missing = await ann.get<Refusal>(
      `/rest/v1/test-runs/${first.id}?compare_to=00000000-0000-4000-8000-000000000000`,
    );
    expect(missing.status).toBe(404);
    expect((await ann.get(`/rest/v1/test-runs/${first.id}?compare_to=nope`)).status).toBe(400);
  });

  it('opens a cell to its full results', async () => {
    const res = await ann.get<{ items: TestResult[] }>(
      `/rest/v1/test-runs/${first.id}/results?case_id=${cases[0]!.id}&target=1`,
    );
    expect(res.status).toBe(200);
    expect(res.body.items.map((r) => r.repeat)).toEqual([1, 2]);
    expect(res.body.items[0]).toMatchObject({
      input: '=SUM(A1) "quoted", text',
      passed: true,
      error: null,
      target: 1,
    });
    expect(res.body.items[0]!.output).toContain('Anthropic');
    const bad = await ann.get(`/rest/v1/test-runs/${first.id}/results?case_id=x&target=0`);
    expect(bad.status).toBe(400);
    const far = await ann.get(
      `/rest/v1/test-runs/${first.id}/results?case_id=${cases[0]!.id}&target=9`,
    );
    expect(far.status).toBe(400);
  });

  it('exports CSV (formulas defused) and JSON as attachments, also with an access token', async () => {
    const csv = await ann.send('GET', `/rest/v1/test-runs/${first.id}/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toBe(
      `attachment; filename="chorus-test-run-${first.id}.csv"`,
    );
    const records = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(8);
    expect(records[0]).toMatchObject({
      case: "'@Formula",
      provider: 'openai',
      model: 'gpt-5-mini',
      repeat: '1',
      passed: 'true',
      assertion_1: 'contains',
      assertion_1_passed: 'true',
    });
    expect(records[0]!.output!.startsWith('Hello from')).toBe(true);
    expect(records[4]).toMatchObject({ case: 'Fails', assertion_2: 'is_json', passed: 'false' });

    const token = await ann.post<CreatedAccessToken>('/rest/v1/access-tokens', { name: 'Export' });
    const json = await t.app.request(`/rest/v1/test-runs/${first.id}/export?format=json`, {
      headers: { authorization: `Bearer ${token.body.token}` },
    });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-disposition')).toContain('attachment');
    const body = (await json.json()) as {
      run: Status;
      cases: { id: string; input: string }[];
      results: TestResult[];
    };
    expect(body.run).toMatchObject({ id: first.id, status: 'done' });
    // The cases as they were when the run started, not as edited since.
    expect(body.cases[0]).toMatchObject({ id: cases[0]!.id, input: '=SUM(A1) "quoted", text' });
    expect(body.results).toHaveLength(8);
    expect((await ann.get(`/rest/v1/test-runs/${first.id}/export?format=xml`)).status).toBe(400);
  });

  it('never shows, exports or deletes one user’s run to another', async () => {
    for (const url of [
      `/rest/v1/test-runs/${first.id}`,
      `/rest/v1/test-runs/${first.id}/results?case_id=${cases[0]!.id}&target=0`,
      `/rest/v1/test-runs/${first.id}/export?format=csv`,
      `/rest/v1/test-runs/${first.id}/export?format=json`,
    ]) {
      const res = await bob.get<Refusal>(url);
      expect(res.status, url).toBe(404);
      expect(res.body.code).toBe('test_runs:not_found');
    }
    const compare = await bob.get(`/rest/v1/test-runs/${first.id}?compare_to=${second.id}`);
    expect(compare.status).toBe(404);
    expect((await bob.del<Refusal>(`/rest/v1/test-runs/${first.id}`)).status).toBe(404);
    expect((await ann.get(`/rest/v1/test-runs/${first.id}`)).status).toBe(200);
    expect((await ann.get('/rest/v1/test-runs/not-a-uuid')).status).toBe(404);
    expect((await t.client().get('/rest/v1/test-runs')).status).toBe(401);
  });

  it('keeps every repository read and write to its own user', async () => {
    const theirs = new TestRunsRepository(t.db, bob.id);
    expect(await theirs.get(first.id)).toBeNull();
    expect(await theirs.results(first.id)).toEqual([]);
    expect(await theirs.resultsForMatrix(first.id)).toEqual([]);
    expect(await theirs.cellResults(first.id, cases[0]!.id, 0)).toEqual([]);
    expect((await theirs.storedKeys(first.id)).size).toBe(0);
    expect(await theirs.requestCancel(first.id)).toBeNull();
    expect(await theirs.remove(first.id)).toBe(false);
    expect(await theirs.claim(first.id, t.deps.instance.id)).toBeNull();
    expect(
      await theirs.previousDone({ id: second.id, test_set_id: set.id, created_at: new Date() }),
    ).toBeNull();
    const written = await theirs.insertResults(first.id, [
      {
        case_id: cases[0]!.id,
        target: 0,
        repeat: 9,
        input: '',
        output: 'not theirs to write',
        error: null,
        passed: true,
      },
    ]);
    expect(written).toBe(0);
    const mine = new TestRunsRepository(t.db, ann.id);
    expect((await mine.get(first.id))!.done).toBe(8);
    expect(await mine.results(first.id)).toHaveLength(8);
  });

  it('deletes an ended run with its results, but not one still going', async () => {
    const ai = await ann.post<CustomAi>('/rest/v1/custom-ais', {
      name: 'Slow',
      provider: 'openai',
    });
    const slow = await ann.post<TestSet>('/rest/v1/test-sets', {
      name: 'Slow',
      subject: { kind: 'custom_ai', id: ai.body.id },
      notify: false,
    });
    await ann.post(`/rest/v1/test-sets/${slow.body.id}/cases`, {
      name: 'h',
      input: 'h [sim:hang]',
    });
    const going = await ann.post<Status>('/functions/v1/test-run', {
      test_set_id: slow.body.id,
      targets: [gpt],
    });
    const busy = await ann.del<Refusal>(`/rest/v1/test-runs/${going.body.id}`);
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('test_runs:active');
    await ann.post(`/functions/v1/test-run/${going.body.id}/cancel`);

    expect((await ann.del(`/rest/v1/test-runs/${second.id}`)).status).toBe(204);
    expect((await ann.get(`/rest/v1/test-runs/${second.id}`)).status).toBe(404);
    expect((await ann.del(`/rest/v1/test-runs/${second.id}`)).status).toBe(404);
  });
});
