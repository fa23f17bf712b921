import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Prompt } from '@chorus/shared/api/prompts';
import type { Scenario } from '@chorus/shared/api/scenarios';
import { trendMinCount, trendsSchema, type Trends } from '@chorus/shared/api/trends';
import { libraryUses, prompts, scenarios } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { forgetTrends } from './trends-data.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;

let t: TestApp;
let author: Client;
let people: Client[];

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
  author = await t.user('trends-author@example.com');
  people = [];
  for (let i = 0; i < 8; i++) people.push(await t.user(`trends-user-${i}@example.com`));
});
afterAll(() => t.close());
// Trends are counted once a minute; each test reads what it just wrote.
beforeEach(() => forgetTrends(t.db));

const DAY = 86_400_000;

const trends = async (): Promise<Trends> => {
  const res = await t.client().get<Trends>('/rest/v1/trends');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return trendsSchema.parse(res.body);
};

const addPrompt = async (title: string, published = true) => {
  const [row] = await t.db
    .insert(prompts)
    .values({ title, content: `${title} text`, user_id: author.id, published })
    .returning();
  return row!;
};

const addScenario = async (title: string, published = true) => {
  const [row] = await t.db
    .insert(scenarios)
    .values({ title, user_prompt: `Say ${title} [sim:tokens 2]`, user_id: author.id, published })
    .returning();
  return row!;
};

/** People `from`…`from + n - 1` used the entry `daysAgo` days ago. */
const use = async (
  kind: 'prompt' | 'scenario',
  itemId: string,
  n: number,
  daysAgo: number,
  from = 0,
) => {
  await t.db.insert(libraryUses).values(
    people.slice(from, from + n).map((p) => ({
      kind,
      item_id: itemId,
      user_id: p.id,
      action: kind === 'prompt' ? ('copy' as const) : ('run' as const),
      created_at: new Date(Date.now() - daysAgo * DAY),
    })),
  );
};

const titles = (list: Trends['prompts']['days7']) => list.map((e) => [e.title, e.count]);

describe('GET /rest/v1/trends', () => {
  it('counts people over 7 and 30 days, hides counts under 5, and shows only published entries', async () => {
    const hot = await addPrompt('Hot prompt');
    const steady = await addPrompt('Steady prompt');
    const rare = await addPrompt('Rare prompt');
    const gone = await addPrompt('Unpublished prompt', false);
    const stale = await addPrompt('Stale prompt');
    await use('prompt', hot.id, 6, 1);
    await use('prompt', steady.id, 5, 12);
    await use('prompt', steady.id, 2, 2, 5);
    await use('prompt', rare.id, 4, 1);
    await use('prompt', gone.id, 8, 1);
    await use('prompt', stale.id, 8, 45);
    // One person copying over and over is still one person.
    await t.db.insert(libraryUses).values(
      Array.from({ length: 12 }, () => ({
        kind: 'prompt' as const,
        item_id: rare.id,
        user_id: people[0]!.id,
        action: 'copy' as const,
        created_at: new Date(Date.now() - DAY),
      })),
    );

    const now = await trends();
    expect(now.min_count).toBe(trendMinCount);
    expect(Date.now() - Date.parse(now.generated_at)).toBeLessThan(10_000);
    expect(titles(now.prompts.days7)).toEqual([['Hot prompt', 6]]);
    expect(titles(now.prompts.days30)).toEqual([
      ['Steady prompt', 7],
      ['Hot prompt', 6],
    ]);
    expect(now.prompts.days7[0]).toEqual({ id: hot.id, title: 'Hot prompt', count: 6 });
    const text = JSON.stringify(now);
    expect(text).not.toContain('Unpublished prompt');
    expect(text).not.toContain('Rare prompt');
    expect(text).not.toContain('Stale prompt');
    expect(text).not.toContain(author.id);

    // Unpublishing takes an entry out at once (once the minute's count is over).
    await t.db.update(prompts).set({ published: false }).where(eq(prompts.id, hot.id));
    forgetTrends(t.db);
    expect(titles((await trends()).prompts.days30)).toEqual([['Steady prompt', 7]]);
  });

  it('counts a copy made through the library, kept when the copy is deleted', async () => {
    const entry = await addPrompt('Copied prompt');
    await use('prompt', entry.id, 4, 3, 1);
    const ann = people[0]!;
    const res = await ann.post<Prompt>(`/rest/v1/library/prompts/${entry.id}/copy`);
    expect(res.status).toBe(201);
    const [copy] = await t.db.select().from(prompts).where(eq(prompts.id, res.body.id));
    expect(copy!.source_id).toBe(entry.id);
    const events = await t.db
      .select()
      .from(libraryUses)
      .where(and(eq(libraryUses.item_id, entry.id), eq(libraryUses.user_id, ann.id)));
    expect(events).toMatchObject([{ kind: 'prompt', action: 'copy' }]);

    expect((await ann.del(`/rest/v1/prompts/${res.body.id}`)).status).toBe(204);
    expect((await trends()).prompts.days7).toContainEqual({
      id: entry.id,
      title: 'Copied prompt',
      count: 5,
    });
  });

  it('counts the runs of cookbook copies, not the copies, for scenarios', async () => {
    const entry = await addScenario('Cookbook favourite');
    const copiedOnly = await addScenario('Copied but never run');
    await use('scenario', entry.id, 4, 2, 1);
    const ann = people[0]!;
    await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-trends-0001' });
    for (const id of [entry.id, copiedOnly.id]) {
      expect((await people[6]!.post(`/rest/v1/library/scenarios/${id}/copy`)).status).toBe(201);
    }
    for (const p of people.slice(1, 6)) {
      expect((await p.post(`/rest/v1/library/scenarios/${copiedOnly.id}/copy`)).status).toBe(201);
    }

    const copy = await ann.post<Scenario>(`/rest/v1/library/scenarios/${entry.id}/copy`);
    expect(copy.status).toBe(201);
    const [row] = await t.db.select().from(scenarios).where(eq(scenarios.id, copy.body.id));
    expect(row!.source_id).toBe(entry.id);
    expect((await trends()).scenarios.days7).toEqual([]);

    const run = await ann.post('/functions/v1/scenario-run', {
      scenario_id: copy.body.id,
      stream: false,
    });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    const counted = async () =>
      (
        await t.db
          .select()
          .from(libraryUses)
          .where(and(eq(libraryUses.item_id, entry.id), eq(libraryUses.action, 'run')))
      ).length;
    expect(await counted()).toBe(5);
    forgetTrends(t.db);
    const now = await trends();
    expect(now.scenarios.days7).toEqual([{ id: entry.id, title: 'Cookbook favourite', count: 5 }]);
    expect(JSON.stringify(now)).not.toContain('Copied but never run');

    // A scenario of the user's own, not from the cookbook, counts for nothing.
    const own = await ann.post<Scenario>('/rest/v1/scenarios', {
      title: 'Mine',
      user_prompt: 'Hi [sim:tokens 1]',
      targets: [{ provider: 'openai', model: '' }],
    });
    expect(own.status).toBe(201);
    const before = await t.db.select().from(libraryUses);
    await ann.post('/functions/v1/scenario-run', { scenario_id: own.body.id, stream: false });
    expect(await t.db.select().from(libraryUses)).toHaveLength(before.length);
  });

  it('keeps at most 10 entries per list, most people first', async () => {
    const many = [];
    for (let i = 0; i < 12; i++) many.push(await addPrompt(`Ranked ${String(i).padStart(2, '0')}`));
    for (const [i, entry] of many.entries()) await use('prompt', entry.id, 5 + (i % 3), 20);
    const { days30 } = (await trends()).prompts;
    expect(days30).toHaveLength(10);
    const counts = days30.map((e) => e.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('answers from its count for a minute', async () => {
    const first = await trends();
    const entry = await addPrompt('Arrived meanwhile');
    await use('prompt', entry.id, 8, 1);
    const second = await trends();
    expect(second).toEqual(first);
    forgetTrends(t.db);
    expect(JSON.stringify(await trends())).toContain('Arrived meanwhile');
  });
});
