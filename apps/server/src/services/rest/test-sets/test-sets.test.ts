import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestCaseList } from '@chorus/shared/api/scenarios';
import {
  testRunLimits,
  type ImportTestCasesResult,
  type TestSet,
  type TestSetCase,
  type TestSetList,
} from '@chorus/shared/api/test-runs';
import { messageFor } from '@chorus/shared/error-catalogue';
import { TestCasesRepository } from '../../../db/repositories/scenarios.ts';
import { testCases, testRuns, testSets } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };
type ImportRefusal = Refusal & { imported: 0; errors: { row: number; message: string }[] };

let t: TestApp;
let ann: Client;
let bob: Client;
let annPrompt: string;
let annScenario: string;
let annCustomAi: string;
let annAgent: string;
let bobPrompt: string;

const missingId = '00000000-0000-4000-8000-000000000000';

const createdId = async (who: Client, url: string, body: unknown) => {
  const res = await who.post<{ id: string }>(url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
};

const newSet = async (who: Client, body: Record<string, unknown> = {}) => {
  const res = await who.post<TestSet>('/rest/v1/test-sets', {
    name: 'Support replies',
    subject: { kind: 'prompt', id: annPrompt },
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const casesOf = async (who: Client, setId: string) =>
  (await who.get<{ items: TestSetCase[] }>(`/rest/v1/test-sets/${setId}/cases`)).body.items;

beforeAll(async () => {
  t = await startTestApp();
  ann = await t.user('test-sets-ann@example.com');
  bob = await t.user('test-sets-bob@example.com');
  annPrompt = await createdId(ann, '/rest/v1/prompts', {
    title: 'Reply to {{customer}}',
    content: 'Write a reply to {{customer}} about {{topic|refunds}}.',
  });
  annScenario = await createdId(ann, '/rest/v1/scenarios', {
    title: 'Trip planner',
    system_prompt: 'You plan trips.',
    user_prompt: 'Plan {{days|3}} days in {{city}}',
    variables: { city: 'Lisbon' },
    parameters: { temperature: 0.5, max_tokens: 800 },
    targets: [{ provider: 'openai', model: 'gpt-4o-mini' }],
  });
  annCustomAi = await createdId(ann, '/rest/v1/custom-ais', {
    name: 'Pirate',
    system_prompt: 'Answer as a pirate.',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    parameters: { temperature: 0.3, top_p: 0.9, max_tokens: 321 },
  });
  annAgent = await createdId(ann, '/rest/v1/agents', {
    name: 'Researcher',
    provider: 'openai',
    instructions: 'Look things up.',
  });
  bobPrompt = await createdId(bob, '/rest/v1/prompts', { title: 'Bob’s', content: 'Hi' });
});
afterAll(() => t.close());

describe('test sets', () => {
  it('makes, reads, changes and deletes a set, on each kind of subject', async () => {
    const set = await newSet(ann, { description: '  The basics  ', repeats: 2 });
    expect(set).toMatchObject({
      name: 'Support replies',
      description: 'The basics',
      subject: { kind: 'prompt', id: annPrompt },
      subject_name: 'Reply to {{customer}}',
      targets: [],
      repeats: 2,
      notify: true,
      case_count: 0,
      last_run: null,
    });

    for (const [kind, id, name] of [
      ['scenario', annScenario, 'Trip planner'],
      ['custom_ai', annCustomAi, 'Pirate'],
      ['agent', annAgent, 'Researcher'],
    ] as const) {
      const changed = await ann.patch<TestSet>(`/rest/v1/test-sets/${set.id}`, {
        subject: { kind, id },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.subject_name).toBe(name);
    }

    const renamed = await ann.patch<TestSet>(`/rest/v1/test-sets/${set.id}`, {
      name: 'Replies',
      targets: [{ provider: 'openai', model: 'gpt-4o-mini' }],
      notify: false,
    });
    expect(renamed.body).toMatchObject({
      name: 'Replies',
      description: 'The basics',
      targets: [{ provider: 'openai', model: 'gpt-4o-mini' }],
      notify: false,
      repeats: 2,
    });
    expect((await ann.get<TestSet>(`/rest/v1/test-sets/${set.id}`)).body).toEqual(renamed.body);

    const list = await ann.get<TestSetList>('/rest/v1/test-sets');
    expect(list.body.items.map((s) => s.id)).toContain(set.id);

    expect((await ann.del(`/rest/v1/test-sets/${set.id}`)).status).toBe(204);
    const gone = await ann.get<Refusal>(`/rest/v1/test-sets/${set.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('test_sets:not_found');
    expect((await ann.get<Refusal>('/rest/v1/test-sets/not-a-uuid')).status).toBe(404);
  });

  it('refuses a subject that is not the user’s, or does not exist', async () => {
    for (const subject of [
      { kind: 'prompt', id: bobPrompt },
      { kind: 'agent', id: annPrompt },
      { kind: 'scenario', id: missingId },
    ]) {
      const res = await ann.post<Refusal>('/rest/v1/test-sets', { name: 'x', subject });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: messageFor('test_sets:subject_not_found'),
        code: 'test_sets:subject_not_found',
      });
    }
    const set = await newSet(ann);
    const patched = await ann.patch<Refusal>(`/rest/v1/test-sets/${set.id}`, {
      subject: { kind: 'prompt', id: bobPrompt },
    });
    expect(patched.status).toBe(404);
    expect(patched.body.code).toBe('test_sets:subject_not_found');
    const badKind = await ann.post<Refusal>('/rest/v1/test-sets', {
      name: 'x',
      subject: { kind: 'workflow', id: annPrompt },
    });
    expect(badKind.status).toBe(400);
  });

  it('shows a deleted subject as a null subject_name', async () => {
    const agent = await createdId(ann, '/rest/v1/agents', {
      name: 'Short lived',
      provider: 'openai',
    });
    const set = await newSet(ann, { subject: { kind: 'agent', id: agent } });
    expect(set.subject_name).toBe('Short lived');
    expect((await ann.del(`/rest/v1/agents/${agent}`)).status).toBe(204);
    expect((await ann.get<TestSet>(`/rest/v1/test-sets/${set.id}`)).body.subject_name).toBeNull();
    const listed = (await ann.get<TestSetList>('/rest/v1/test-sets')).body.items.find(
      (s) => s.id === set.id,
    );
    expect(listed).toMatchObject({ subject: { kind: 'agent', id: agent }, subject_name: null });
  });

  it('lists each set with its case count and newest run', async () => {
    const set = await newSet(ann, { name: 'With runs' });
    await ann.post(`/rest/v1/test-sets/${set.id}/cases`, { name: 'One' });
    await ann.post(`/rest/v1/test-sets/${set.id}/cases`, { name: 'Two' });
    const run = (name: string, at: string, status: 'done' | 'running') => ({
      user_id: ann.id,
      test_set_id: set.id,
      name,
      status,
      targets: [{ provider: 'openai', model: 'gpt-4o-mini' }],
      repeats: 1,
      plan: {},
      total: 2,
      done: 2,
      passed: 1,
      created_at: new Date(at),
    });
    await t.db
      .insert(testRuns)
      .values([
        run('old', '2026-01-01T00:00:00Z', 'done'),
        run('new', '2026-01-02T00:00:00Z', 'running'),
      ]);
    const listed = (await ann.get<TestSetList>('/rest/v1/test-sets')).body.items.find(
      (s) => s.id === set.id,
    );
    expect(listed).toMatchObject({
      case_count: 2,
      last_run: {
        test_set_id: set.id,
        name: 'new',
        status: 'running',
        done: 2,
        total: 2,
        pass_rate: 0.5,
        created_at: '2026-01-02T00:00:00.000Z',
      },
    });
    expect((await ann.get<TestSet>(`/rest/v1/test-sets/${set.id}`)).body.last_run?.name).toBe(
      'new',
    );
  });

  it('keeps at most setsPerUser sets', async () => {
    const who = await t.user('test-sets-many@example.com');
    const prompt = await createdId(who, '/rest/v1/prompts', { title: 'p', content: 'c' });
    await t.db.insert(testSets).values(
      Array.from({ length: testRunLimits.setsPerUser - 1 }, (_, i) => ({
        user_id: who.id,
        name: `Set ${i}`,
        subject_kind: 'prompt' as const,
        subject_id: prompt,
      })),
    );
    const body = { name: 'Last', subject: { kind: 'prompt', id: prompt } };
    expect((await who.post('/rest/v1/test-sets', body)).status).toBe(201);
    const over = await who.post<Refusal>('/rest/v1/test-sets', body);
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('test_sets:too_many');
    expect((await who.get<TestSetList>('/rest/v1/test-sets')).body.items).toHaveLength(
      testRunLimits.setsPerUser,
    );
  });

  it('refuses a name with a NUL and invalid fields', async () => {
    const nul = await ann.post<Refusal>('/rest/v1/test-sets', {
      name: 'bad\u0000name',
      subject: { kind: 'prompt', id: annPrompt },
    });
    expect(nul.status).toBe(400);
    expect(nul.body.code).toBe('request:invalid_text');
    const empty = await ann.post<Refusal>('/rest/v1/test-sets', {
      name: '   ',
      subject: { kind: 'prompt', id: annPrompt },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toContain('The name cannot be empty');
    const extra = await ann.post<Refusal>('/rest/v1/test-sets', {
      name: 'x',
      subject: { kind: 'prompt', id: annPrompt },
      owner: bob.id,
    });
    expect(extra.status).toBe(400);
  });
});

describe('test set cases', () => {
  it('adds, orders, changes and deletes cases', async () => {
    const set = await newSet(ann, { name: 'Cases' });
    const first = await ann.post<TestSetCase>(`/rest/v1/test-sets/${set.id}/cases`, {
      name: 'Angry customer',
      variables: { customer: 'Ann' },
      expected_output: 'Sorry',
      assertions: [{ type: 'contains', values: ['sorry'] }, { type: 'is_json' }],
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      test_set_id: set.id,
      name: 'Angry customer',
      input: '',
      variables: { customer: 'Ann' },
      expected_output: 'Sorry',
      assertions: [
        { type: 'contains', values: ['sorry'], mode: 'any', ignore_case: true },
        { type: 'is_json' },
      ],
      position: 0,
    });
    const second = await ann.post<TestSetCase>(`/rest/v1/test-sets/${set.id}/cases`, {
      name: 'Second',
      input: 'Hello',
    });
    expect(second.body.position).toBe(1);
    expect((await casesOf(ann, set.id)).map((c) => c.name)).toEqual(['Angry customer', 'Second']);

    const moved = await ann.patch<TestSetCase>(
      `/rest/v1/test-sets/${set.id}/cases/${first.body.id}`,
      { position: 5, input: 'Where is my order?', expected_output: null },
    );
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ position: 5, input: 'Where is my order?' });
    expect(moved.body.expected_output).toBeNull();
    const tooFar = await ann.patch<Refusal>(`/rest/v1/test-sets/${set.id}/cases/${first.body.id}`, {
      position: 2 ** 31,
    });
    expect(tooFar.status).toBe(400);
    expect(tooFar.body.code).toBe('bad_request:validation');
    expect((await casesOf(ann, set.id)).map((c) => c.name)).toEqual(['Second', 'Angry customer']);

    const row = await t.db.query.testCases.findFirst({ where: eq(testCases.id, first.body.id) });
    expect(row).toMatchObject({ prompt: 'Where is my order?', system_prompt: '', provider: null });

    expect((await ann.get<TestSet>(`/rest/v1/test-sets/${set.id}`)).body.case_count).toBe(2);
    expect((await ann.del(`/rest/v1/test-sets/${set.id}/cases/${first.body.id}`)).status).toBe(204);
    const again = await ann.del<Refusal>(`/rest/v1/test-sets/${set.id}/cases/${first.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('test_sets:case_not_found');
    expect((await casesOf(ann, set.id)).map((c) => c.name)).toEqual(['Second']);
  });

  it('finds a case only in its own set', async () => {
    const a = await newSet(ann, { name: 'A' });
    const b = await newSet(ann, { name: 'B' });
    const inA = (await ann.post<TestSetCase>(`/rest/v1/test-sets/${a.id}/cases`, { name: 'x' }))
      .body;
    const wrongSet = await ann.patch<Refusal>(`/rest/v1/test-sets/${b.id}/cases/${inA.id}`, {
      name: 'y',
    });
    expect(wrongSet.status).toBe(404);
    expect(wrongSet.body.code).toBe('test_sets:case_not_found');
    expect((await ann.del(`/rest/v1/test-sets/${b.id}/cases/${inA.id}`)).status).toBe(404);
    expect((await ann.del(`/rest/v1/test-sets/${a.id}/cases/nope`)).status).toBe(404);
  });

  it('refuses a regex RE2 cannot run and an unknown assertion type', async () => {
    const set = await newSet(ann, { name: 'Regex' });
    const lookahead = await ann.post<Refusal>(`/rest/v1/test-sets/${set.id}/cases`, {
      name: 'x',
      assertions: [{ type: 'regex', pattern: 'a(?=b)' }],
    });
    expect(lookahead.status).toBe(400);
    expect(lookahead.body.code).toBe('bad_request:validation');
    expect(lookahead.body.error).toContain('not valid RE2');
    const code = await ann.post<Refusal>(`/rest/v1/test-sets/${set.id}/cases`, {
      name: 'x',
      assertions: [{ type: 'javascript', code: 'return true' }],
    });
    expect(code.status).toBe(400);
    expect(code.body.error).toContain('Unknown assertion type');
    expect(await casesOf(ann, set.id)).toEqual([]);
  });

  it('keeps at most casesPerSet cases, by hand, by import and by filing', async () => {
    const set = await newSet(ann, { name: 'Full' });
    await t.db.insert(testCases).values(
      Array.from({ length: testRunLimits.casesPerSet - 1 }, (_, i) => ({
        user_id: ann.id,
        test_set_id: set.id,
        name: `Case ${i}`,
        prompt: '',
        position: i,
      })),
    );
    expect((await ann.post(`/rest/v1/test-sets/${set.id}/cases`, { name: 'Last' })).status).toBe(
      201,
    );
    const over = await ann.post<Refusal>(`/rest/v1/test-sets/${set.id}/cases`, { name: 'Over' });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('test_sets:too_many_cases');
    const imported = await ann.post<Refusal>(`/rest/v1/test-sets/${set.id}/cases/import`, {
      format: 'csv',
      content: 'name\nOver',
    });
    expect(imported.status).toBe(409);
    expect(imported.body.code).toBe('test_sets:too_many_cases');
    const saved = await new TestCasesRepository(t.db, ann.id).create({
      name: 'From a scenario',
      prompt: 'Hi',
    });
    const filed = await ann.post<Refusal>(`/rest/v1/test-sets/${set.id}/cases/file`, {
      case_ids: [saved.id],
    });
    expect(filed.status).toBe(409);
    expect(filed.body.code).toBe('test_sets:too_many_cases');
    expect((await ann.get<TestSet>(`/rest/v1/test-sets/${set.id}`)).body.case_count).toBe(
      testRunLimits.casesPerSet,
    );
    await t.db.delete(testCases).where(eq(testCases.id, saved.id));
  });
});

describe('importing cases', () => {
  it('imports a CSV with variables and shorthand assertions after the cases there are', async () => {
    const set = await newSet(ann, { name: 'CSV' });
    await ann.post(`/rest/v1/test-sets/${set.id}/cases`, { name: 'By hand' });
    const res = await ann.post<ImportTestCasesResult>(`/rest/v1/test-sets/${set.id}/cases/import`, {
      format: 'csv',
      content: [
        'name,customer,expected_output,assert,assert_2',
        'Polite,Ann,Dear Ann,contains:Ann,judge:Is it polite?',
        ',Bob,,regex:^Dear,max-length:500',
      ].join('\n'),
      judge: { provider: 'openai', model: 'gpt-4o-mini' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ imported: 2, errors: [] });
    const cases = await casesOf(ann, set.id);
    expect(cases.map((c) => [c.name, c.position])).toEqual([
      ['By hand', 0],
      ['Polite', 1],
      ['Case 2', 2],
    ]);
    expect(cases[1]).toMatchObject({
      variables: { customer: 'Ann' },
      expected_output: 'Dear Ann',
      assertions: [
        { type: 'contains', values: ['Ann'] },
        { type: 'judge', rubric: 'Is it polite?', provider: 'openai', model: 'gpt-4o-mini' },
      ],
    });
    expect(cases[2]!.assertions).toEqual([
      { type: 'regex', pattern: '^Dear', flags: '' },
      { type: 'length', min: null, max: 500 },
    ]);
  });

  it('imports JSON', async () => {
    const set = await newSet(ann, {
      name: 'JSON',
      subject: { kind: 'custom_ai', id: annCustomAi },
    });
    const res = await ann.post<ImportTestCasesResult>(`/rest/v1/test-sets/${set.id}/cases/import`, {
      format: 'json',
      content: JSON.stringify([
        { name: 'Treasure', input: 'Where is the treasure?', assertions: ['contains:arr'] },
        { input: 'Ships?', assertions: [{ type: 'latency', max_ms: 5000 }] },
      ]),
    });
    expect(res.status).toBe(201);
    expect(res.body.imported).toBe(2);
    expect((await casesOf(ann, set.id)).map((c) => [c.name, c.input])).toEqual([
      ['Treasure', 'Where is the treasure?'],
      ['Case 2', 'Ships?'],
    ]);
  });

  it('imports nothing when a row is bad, and says which rows', async () => {
    const set = await newSet(ann, { name: 'Bad import' });
    const csv = await ann.post<ImportRefusal>(`/rest/v1/test-sets/${set.id}/cases/import`, {
      format: 'csv',
      content: ['name,assert,assertions', 'Good,contains:x,', 'Bad,,{"type":"is_json"}'].join('\n'),
    });
    expect(csv.status).toBe(422);
    expect(csv.body).toEqual({
      error: messageFor('test_sets:bad_import', {
        count: 1,
        first: 'row 2: the assertions column is not a JSON array',
      }),
      code: 'test_sets:bad_import',
      imported: 0,
      errors: [{ row: 2, message: 'the assertions column is not a JSON array' }],
    });

    const judge = await ann.post<ImportRefusal>(`/rest/v1/test-sets/${set.id}/cases/import`, {
      format: 'csv',
      content: 'name,assert\nOne,judge:Kind?\nTwo,judge:Short?',
    });
    expect(judge.status).toBe(422);
    expect(judge.body.errors.map((e) => e.row)).toEqual([1, 2]);
    expect(judge.body.error).toContain('2 rows could not be imported');

    const json = await ann.post<ImportRefusal>(`/rest/v1/test-sets/${set.id}/cases/import`, {
      format: 'json',
      content: '[{"name": "x", "assertions": [{"type": "regex", "pattern": "(a)\\\\1"}]}]',
    });
    expect(json.status).toBe(422);
    expect(json.body.errors[0]!.message).toContain('not valid RE2');

    const notJson = await ann.post<ImportRefusal>(`/rest/v1/test-sets/${set.id}/cases/import`, {
      format: 'json',
      content: 'name,input',
    });
    expect(notJson.status).toBe(422);
    expect(notJson.body.code).toBe('test_sets:bad_import');

    const format = await ann.post<Refusal>(`/rest/v1/test-sets/${set.id}/cases/import`, {
      format: 'xlsx',
      content: 'x',
    });
    expect(format.status).toBe(400);
    expect(await casesOf(ann, set.id)).toEqual([]);
  });

  it('takes a file over the 1 MB body limit, up to the import’s own', async () => {
    const set = await newSet(ann, { name: 'Big import' });
    const rows = Array.from({ length: 300 }, (_, i) => `Case ${i},${'x'.repeat(5_000)}`);
    const content = `name,input\n${rows.join('\n')}`;
    expect(content.length).toBeGreaterThan(1024 * 1024);
    const res = await ann.post<ImportTestCasesResult>(`/rest/v1/test-sets/${set.id}/cases/import`, {
      format: 'csv',
      content,
    });
    expect(res.status).toBe(201);
    expect(res.body.imported).toBe(300);
    const tooLong = await ann.post<Refusal>(`/rest/v1/test-sets/${set.id}/cases/import`, {
      format: 'csv',
      content: 'x'.repeat(testRunLimits.importChars + 1),
    });
    expect(tooLong.status).toBe(400);
  });
});

describe('filing saved cases', () => {
  it('files the user’s unfiled cases into a set and passes over others’', async () => {
    const annCases = new TestCasesRepository(t.db, ann.id);
    const first = await annCases.create({
      name: 'Saved one',
      prompt: 'Plan a trip',
      variables: { city: 'Porto' },
      expected_output: 'Day 1',
      provider: 'openai',
      model: 'gpt-4o-mini',
    });
    const second = await annCases.create({ name: 'Saved two', prompt: 'Plan again' });
    const bobs = await new TestCasesRepository(t.db, bob.id).create({ name: 'Bob’s', prompt: 'x' });

    const unfiled = await ann.get<TestCaseList>('/rest/v1/test-cases?unfiled=true');
    expect(unfiled.body.items.map((c) => c.id)).toEqual(
      expect.arrayContaining([first.id, second.id]),
    );
    expect(unfiled.body.items.map((c) => c.id)).not.toContain(bobs.id);

    const set = await newSet(ann, {
      name: 'Filed',
      subject: { kind: 'scenario', id: annScenario },
    });
    await ann.post(`/rest/v1/test-sets/${set.id}/cases`, { name: 'By hand' });
    const filed = await ann.post<{ filed: number }>(`/rest/v1/test-sets/${set.id}/cases/file`, {
      case_ids: [first.id, second.id, bobs.id, missingId],
    });
    expect(filed.status).toBe(200);
    expect(filed.body).toEqual({ filed: 2 });
    const cases = await casesOf(ann, set.id);
    expect(cases.map((c) => [c.name, c.position])).toEqual([
      ['By hand', 0],
      ['Saved one', 1],
      ['Saved two', 2],
    ]);
    expect(cases[1]).toMatchObject({
      input: 'Plan a trip',
      variables: { city: 'Porto' },
      expected_output: 'Day 1',
      assertions: [],
    });

    // Filed already: a second call moves nothing, into this set or another.
    const other = await newSet(ann, { name: 'Other' });
    expect(
      (
        await ann.post<{ filed: number }>(`/rest/v1/test-sets/${other.id}/cases/file`, {
          case_ids: [first.id],
        })
      ).body,
    ).toEqual({ filed: 0 });
    const stillUnfiled = await ann.get<TestCaseList>('/rest/v1/test-cases?unfiled=true');
    expect(stillUnfiled.body.items.map((c) => c.id)).not.toContain(first.id);
    const firstRow = await t.db.query.testCases.findFirst({ where: eq(testCases.id, first.id) });
    expect(firstRow?.test_set_id).toBe(set.id);
    const bobRow = await t.db
      .select()
      .from(testCases)
      .where(and(eq(testCases.id, bobs.id), isNull(testCases.test_set_id)));
    expect(bobRow).toHaveLength(1);
    expect((await ann.get('/rest/v1/test-cases?unfiled=maybe')).status).toBe(400);
  });
});

describe('a second user', () => {
  it('cannot read, change, fill or delete the first user’s sets and cases', async () => {
    const set = await newSet(ann, { name: 'Private' });
    const theCase = (
      await ann.post<TestSetCase>(`/rest/v1/test-sets/${set.id}/cases`, { name: 'Mine' })
    ).body;
    const base = `/rest/v1/test-sets/${set.id}`;
    const caseUrl = `${base}/cases/${theCase.id}`;
    const bobCase = await new TestCasesRepository(t.db, bob.id).create({ name: 'b', prompt: 'b' });
    const attempts: [string, string, unknown?][] = [
      ['GET', base],
      ['PATCH', base, { name: 'Taken' }],
      ['DELETE', base],
      ['GET', `${base}/cases`],
      ['POST', `${base}/cases`, { name: 'Planted' }],
      ['PATCH', caseUrl, { name: 'Changed' }],
      ['DELETE', caseUrl],
      ['POST', `${base}/cases/import`, { format: 'csv', content: 'name\nPlanted' }],
      ['POST', `${base}/cases/file`, { case_ids: [bobCase.id] }],
    ];
    for (const [method, url, body] of attempts) {
      const res = await bob.request<Refusal>(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.code).toBe('test_sets:not_found');
    }
    expect((await bob.get<TestSetList>('/rest/v1/test-sets')).body.items).toEqual([]);
    // Bob may not put his case in Ann's set, nor file Ann's case into his own.
    const bobSet = await newSet(bob, { subject: { kind: 'prompt', id: bobPrompt } });
    const annSaved = await new TestCasesRepository(t.db, ann.id).create({ name: 'a', prompt: 'a' });
    expect(
      (
        await bob.post<{ filed: number }>(`/rest/v1/test-sets/${bobSet.id}/cases/file`, {
          case_ids: [annSaved.id],
        })
      ).body,
    ).toEqual({ filed: 0 });
    const bobUnfiled = (
      await bob.get<TestCaseList>('/rest/v1/test-cases?unfiled=true')
    ).body.items.map((c) => c.id);
    expect(bobUnfiled).toContain(bobCase.id);
    expect(bobUnfiled).not.toContain(annSaved.id);

    const after = await ann.get<TestSet>(base);
    expect(after.body).toMatchObject({ name: 'Private', case_count: 1 });
    expect((await casesOf(ann, set.id)).map((c) => c.name)).toEqual(['Mine']);
  });

  it('asks a guest to sign in', async () => {
    const guest = t.client();
    expect((await guest.get('/rest/v1/test-sets')).status).toBe(401);
    expect((await guest.post('/rest/v1/test-sets', {})).status).toBe(401);
  });
});
