import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminScenario, LibraryScenariosResponse } from '@chorus/shared/api/library';
import {
  scenarioLimits,
  scenarioSchema,
  type Scenario,
  type ScenarioPage,
} from '@chorus/shared/api/scenarios';
import { messageFor } from '@chorus/shared/error-catalogue';
import { scenarios } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('scenarios-root@example.com');
});
afterAll(() => t.close());

type Refusal = { error: string; code: string };

const setup = {
  title: 'Trip planner',
  description: 'Plans a trip',
  category: 'Travel',
  system_prompt: 'You plan trips.',
  user_prompt: 'Plan {{days|3}} days in {{city}}',
  variables: { city: 'Lisbon' },
  parameters: { temperature: 0.5, max_tokens: 800 },
  targets: [
    { provider: 'openai', model: 'gpt-4o-mini' },
    { provider: 'anthropic', model: '' },
  ],
};

describe('/rest/v1/scenarios', () => {
  it('asks guests to sign in', async () => {
    const guest = t.client();
    expect((await guest.get('/rest/v1/scenarios')).status).toBe(401);
    expect((await guest.post('/rest/v1/scenarios', setup)).status).toBe(401);
  });

  it('creates, reads, changes and deletes a scenario', async () => {
    const ann = await t.user('crud@example.com');
    const created = await ann.post<Scenario>('/rest/v1/scenarios', setup);
    expect(created.status).toBe(201);
    expect(scenarioSchema.strict().parse(created.body)).toMatchObject({
      ...setup,
      last_run_at: null,
    });
    const id = created.body.id;

    const read = await ann.get<Scenario>(`/rest/v1/scenarios/${id}`);
    expect(read.body).toEqual(created.body);

    const changed = await ann.patch<Scenario>(`/rest/v1/scenarios/${id}`, {
      title: ' Weekend planner ',
      parameters: { temperature: 1 },
    });
    expect(changed.status).toBe(200);
    // Only the fields sent change.
    expect(changed.body).toMatchObject({
      ...setup,
      title: 'Weekend planner',
      parameters: { temperature: 1 },
    });
    expect(changed.body.updated_at >= created.body.updated_at).toBe(true);

    const minimal = await ann.post<Scenario>('/rest/v1/scenarios', {
      title: 'Bare',
      user_prompt: 'Hi',
      targets: [{ provider: 'mistral' }],
    });
    expect(minimal.body).toMatchObject({
      description: '',
      category: '',
      system_prompt: '',
      variables: {},
      parameters: {},
      targets: [{ provider: 'mistral', model: '' }],
    });

    expect((await ann.del(`/rest/v1/scenarios/${id}`)).status).toBe(204);
    const gone = await ann.get<Refusal>(`/rest/v1/scenarios/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({
      code: 'scenarios:not_found',
      error: messageFor('scenarios:not_found'),
    });
    expect((await ann.del(`/rest/v1/scenarios/${id}`)).status).toBe(404);
    expect((await ann.get(`/rest/v1/scenarios/not-a-uuid`)).status).toBe(404);
  });

  it('pages newest first with an opaque cursor, and searches titles and descriptions', async () => {
    const bob = await t.user('pages@example.com');
    for (let i = 0; i < 5; i++) {
      await bob.post('/rest/v1/scenarios', {
        ...setup,
        title: `Scenario ${i}`,
        description: i === 2 ? 'About 100% of tides' : '',
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/rest/v1/scenarios?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page: { body: ScenarioPage } = await bob.get<ScenarioPage>(url);
      seen.push(...page.body.items.map((s) => s.title));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['Scenario 4', 'Scenario 3', 'Scenario 2', 'Scenario 1', 'Scenario 0']);

    const hit = await bob.get<ScenarioPage>('/rest/v1/scenarios?search=TIDES');
    expect(hit.body.items.map((s) => s.title)).toEqual(['Scenario 2']);
    const literal = await bob.get<ScenarioPage>('/rest/v1/scenarios?search=%25');
    expect(literal.body.items.map((s) => s.title)).toEqual(['Scenario 2']);

    for (const bad of ['nonsense', Buffer.from('2024-01-01|x').toString('base64url')]) {
      const res = await bob.get<Refusal>(`/rest/v1/scenarios?cursor=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('scenarios:bad_cursor');
    }
    const runs = await bob.get<Refusal>(
      `/rest/v1/scenarios/00000000-0000-4000-8000-000000000000/runs?cursor=nonsense`,
    );
    expect(runs.body.code).toBe('scenarios:bad_cursor');
  });

  it('refuses each bad field with a typed 400, never a 500', async () => {
    const cy = await t.user('invalid@example.com');
    const long = (n: number) => 'x'.repeat(n + 1);
    const creates: Record<string, unknown>[] = [
      { ...setup, title: '' },
      { ...setup, title: long(scenarioLimits.title) },
      { ...setup, description: long(scenarioLimits.description) },
      { ...setup, category: long(scenarioLimits.category) },
      { ...setup, system_prompt: long(scenarioLimits.systemPrompt) },
      { ...setup, user_prompt: '  ' },
      { ...setup, user_prompt: long(scenarioLimits.userPrompt) },
      { ...setup, targets: [] },
      { ...setup, targets: Array(9).fill({ provider: 'openai', model: '' }) },
      { ...setup, targets: [{ provider: 'skynet', model: '' }] },
      { ...setup, targets: [{ provider: 'openai', model: long(scenarioLimits.model) }] },
      { ...setup, targets: 'openai' },
      { ...setup, parameters: { temperature: 2.5 } },
      { ...setup, parameters: { temperature: 'warm' } },
      { ...setup, parameters: { max_tokens: 0 } },
      { ...setup, parameters: { max_tokens: 1.5 } },
      { ...setup, parameters: { top_k: 3 } },
      { ...setup, variables: { city: 3 } },
      { ...setup, extra: true },
      { title: 'No prompt', targets: setup.targets },
    ];
    for (const body of creates) {
      const res = await cy.post<Refusal>('/rest/v1/scenarios', body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.body.code).toBe('bad_request:validation');
    }
    const malformed = await cy.request<Refusal>('POST', '/rest/v1/scenarios', '{"title": "x",');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('request:malformed_json');

    const id = (await cy.post<Scenario>('/rest/v1/scenarios', setup)).body.id;
    for (const patch of [{}, { title: '' }, { targets: [] }, { user_prompt: '' }, { nope: 1 }]) {
      const res = await cy.patch<Refusal>(`/rest/v1/scenarios/${id}`, patch);
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.code).toBe('bad_request:validation');
    }
    for (const query of ['limit=0', 'limit=101', 'limit=ten']) {
      const res = await cy.get<Refusal>(`/rest/v1/scenarios?${query}`);
      expect(res.status, query).toBe(400);
    }
  });

  it('keeps a user to the scenarios one may keep', async () => {
    const di = await t.user('many@example.com');
    await t.db.insert(scenarios).values(
      Array.from({ length: scenarioLimits.perUser }, (_, i) => ({
        user_id: di.id,
        title: `Bulk ${i}`,
        user_prompt: 'Hi',
        targets: [{ provider: 'openai', model: '' }],
      })),
    );
    const res = await di.post<Refusal>('/rest/v1/scenarios', setup);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: 'scenarios:too_many',
      error: messageFor('scenarios:too_many', { max: scenarioLimits.perUser }),
    });
  });

  it("gives another user's scenario and a cookbook entry 404, and lists neither", async () => {
    const owner = await t.user('owner@example.com');
    const other = await t.user('other@example.com');
    const mine = (await owner.post<Scenario>('/rest/v1/scenarios', setup)).body;
    const cookbook = await admin.post<AdminScenario>('/rest/v1/admin/scenarios', {
      title: 'Cookbook entry',
      steps: ['Step one'],
    });
    expect(cookbook.status).toBe(201);
    for (const id of [mine.id, cookbook.body.id]) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { title: 'Taken' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await other.request<Refusal>(method, `/rest/v1/scenarios/${id}`, body);
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(res.body.code).toBe('scenarios:not_found');
      }
    }
    expect((await other.get<ScenarioPage>('/rest/v1/scenarios')).body.items).toEqual([]);
    const [row] = await t.db.select().from(scenarios).where(eq(scenarios.id, mine.id));
    expect(row?.title).toBe(setup.title);
    expect((await owner.get<Scenario>(`/rest/v1/scenarios/${mine.id}`)).body).toEqual(mine);
  });
});

describe('the cookbook', () => {
  it('shows prompts and models on published entries, the steps joined when no prompt is set', async () => {
    const created = await admin.post<AdminScenario>('/rest/v1/admin/scenarios', {
      title: 'Code review',
      description: 'Review a diff',
      category: 'Coding',
      steps: ['Review this diff', 'Suggest tests'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      steps: ['Review this diff', 'Suggest tests'],
      system_prompt: '',
      user_prompt: 'Review this diff\n\nSuggest tests',
      targets: [],
    });
    const listed = (
      await t.client().get<LibraryScenariosResponse>('/rest/v1/library/scenarios')
    ).body.items.find((s) => s.id === created.body.id);
    expect(listed).toMatchObject({ user_prompt: 'Review this diff\n\nSuggest tests', targets: [] });
  });

  it('copies a published entry into the caller’s scenarios', async () => {
    const ed = await t.user('copier@example.com');
    const published = await admin.post<AdminScenario>('/rest/v1/admin/scenarios', {
      title: 'Brainstorm',
      description: 'Ideas for {{topic}}',
      category: 'Ideas',
      steps: ['Give ten ideas about {{topic}}', 'Pick the best'],
    });
    const copy = await ed.post<Scenario>(`/rest/v1/library/scenarios/${published.body.id}/copy`);
    expect(copy.status).toBe(201);
    expect(scenarioSchema.strict().parse(copy.body)).toMatchObject({
      title: 'Brainstorm',
      description: 'Ideas for {{topic}}',
      category: 'Ideas',
      system_prompt: '',
      user_prompt: 'Give ten ideas about {{topic}}\n\nPick the best',
      variables: {},
      parameters: {},
      targets: [{ provider: 'openai', model: '' }],
      last_run_at: null,
    });
    expect(copy.body.id).not.toBe(published.body.id);
    const mine = await ed.get<ScenarioPage>('/rest/v1/scenarios');
    expect(mine.body.items.map((s) => s.id)).toEqual([copy.body.id]);

    // An entry with its own prompts, parameters and models keeps them in the copy.
    await t.db
      .update(scenarios)
      .set({
        system_prompt: 'Be bold.',
        user_prompt: 'Ideas for {{topic}}',
        variables: { topic: 'boats' },
        parameters: { temperature: 1.2 },
        targets: [{ provider: 'gemini', model: 'gemini-1.5-flash' }],
      })
      .where(eq(scenarios.id, published.body.id));
    const full = await ed.post<Scenario>(`/rest/v1/library/scenarios/${published.body.id}/copy`);
    expect(full.body).toMatchObject({
      system_prompt: 'Be bold.',
      user_prompt: 'Ideas for {{topic}}',
      variables: { topic: 'boats' },
      parameters: { temperature: 1.2 },
      targets: [{ provider: 'gemini', model: 'gemini-1.5-flash' }],
    });
    // The copy is the caller's own: changing it leaves the cookbook entry as it was.
    await ed.patch(`/rest/v1/scenarios/${full.body.id}`, { title: 'My brainstorm' });
    const [entry] = await t.db.select().from(scenarios).where(eq(scenarios.id, published.body.id));
    expect(entry?.title).toBe('Brainstorm');
  });

  it('copies only published entries, for signed-in users', async () => {
    const fay = await t.user('copy-refused@example.com');
    const draft = await admin.post<AdminScenario>('/rest/v1/admin/scenarios', {
      title: 'Draft',
      steps: ['x'],
      published: false,
    });
    const [own] = await t.db
      .insert(scenarios)
      .values({ user_id: admin.id, title: 'Private', user_prompt: 'p' })
      .returning();
    for (const id of [draft.body.id, own!.id, '00000000-0000-4000-8000-000000000000', 'bad']) {
      const res = await fay.post<Refusal>(`/rest/v1/library/scenarios/${id}/copy`);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({
        code: 'library:not_found',
        error: messageFor('library:not_found', { kind: 'scenario' }),
      });
    }
    expect((await t.client().post(`/rest/v1/library/scenarios/${draft.body.id}/copy`)).status).toBe(
      401,
    );
    const count = await t.db.execute(
      sql`select count(*)::int as n from scenarios where user_id = ${fay.id}`,
    );
    expect((count as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });
});
