import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from '../db/schema/index.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { caseMessage, resolveSubject, subjectNames, type ResolvedSubject } from './subject.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;

let t: TestApp;
let ann: Client;
let bob: Client;
const ids = { prompt: '', scenario: '', custom_ai: '', agent: '' };

const createdId = async (who: Client, url: string, body: unknown) => {
  const res = await who.post<{ id: string }>(url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
};

beforeAll(async () => {
  t = await startTestApp();
  ann = await t.user('subject-ann@example.com');
  bob = await t.user('subject-bob@example.com');
  ids.prompt = await createdId(ann, '/rest/v1/prompts', {
    title: 'Reply',
    content: 'Reply to {{customer}} about {{topic|refunds}}.',
  });
  ids.scenario = await createdId(ann, '/rest/v1/scenarios', {
    title: 'Trip planner',
    system_prompt: 'You plan trips.',
    user_prompt: 'Plan {{days|3}} days in {{city}}',
    variables: { city: 'Lisbon' },
    parameters: { temperature: 0.5, max_tokens: 800 },
    targets: [{ provider: 'openai', model: 'gpt-4o-mini' }],
  });
  ids.custom_ai = await createdId(ann, '/rest/v1/custom-ais', {
    name: 'Pirate',
    system_prompt: 'Answer as a pirate.',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    parameters: { temperature: 0.3, top_p: 0.9, max_tokens: 321 },
  });
  ids.agent = await createdId(ann, '/rest/v1/agents', {
    name: 'Researcher',
    provider: 'openai',
    model: 'gpt-4o-mini',
    instructions: 'Look things up.',
    tools: [{ tool: 'builtin:calculator', approval: 'never' }],
  });
});
afterAll(() => t.close());

describe('resolveSubject', () => {
  it('reads a saved prompt as a template with no instructions', async () => {
    expect(await resolveSubject(t.db, ann.id, { kind: 'prompt', id: ids.prompt })).toEqual({
      kind: 'prompt',
      id: ids.prompt,
      name: 'Reply',
      system: '',
      template: 'Reply to {{customer}} about {{topic|refunds}}.',
      variables: {},
      provider: null,
      model: null,
      temperature: null,
      topP: null,
      maxOutputTokens: null,
      agent: null,
    });
  });

  it('reads a scenario with its system prompt, defaults and parameters', async () => {
    expect(await resolveSubject(t.db, ann.id, { kind: 'scenario', id: ids.scenario })).toEqual({
      kind: 'scenario',
      id: ids.scenario,
      name: 'Trip planner',
      system: 'You plan trips.',
      template: 'Plan {{days|3}} days in {{city}}',
      variables: { city: 'Lisbon' },
      provider: null,
      model: null,
      temperature: 0.5,
      topP: null,
      maxOutputTokens: 800,
      agent: null,
    });
  });

  it('reads a custom AI with its provider, model and sampling', async () => {
    const subject = await resolveSubject(t.db, ann.id, { kind: 'custom_ai', id: ids.custom_ai });
    expect(subject).toMatchObject({
      kind: 'custom_ai',
      name: 'Pirate',
      system: 'Answer as a pirate.',
      template: null,
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      maxOutputTokens: 321,
      agent: null,
    });
    expect(subject!.temperature).toBeCloseTo(0.3);
    expect(subject!.topP).toBeCloseTo(0.9);
  });

  it('reads an agent with what its toolset needs, as plain JSON', async () => {
    const subject = await resolveSubject(t.db, ann.id, { kind: 'agent', id: ids.agent });
    expect(subject).toMatchObject({
      kind: 'agent',
      name: 'Researcher',
      system: 'Look things up.',
      template: null,
      provider: 'openai',
      model: 'gpt-4o-mini',
      agent: {
        tools: [{ tool: 'builtin:calculator', approval: 'never' }],
        knowledge_base_ids: [],
        max_steps: 10,
      },
    });
    expect(JSON.parse(JSON.stringify(subject))).toEqual(subject);
  });

  it('finds nothing of another user’s, of the wrong kind, or deleted', async () => {
    for (const kind of ['prompt', 'scenario', 'custom_ai', 'agent'] as const) {
      expect(await resolveSubject(t.db, bob.id, { kind, id: ids[kind] })).toBeNull();
    }
    expect(await resolveSubject(t.db, ann.id, { kind: 'agent', id: ids.prompt })).toBeNull();
    const gone = await createdId(ann, '/rest/v1/agents', { name: 'Gone', provider: 'openai' });
    await t.db.delete(agents).where(eq(agents.id, gone));
    expect(await resolveSubject(t.db, ann.id, { kind: 'agent', id: gone })).toBeNull();
  });
});

describe('subjectNames', () => {
  it('names the user’s subjects of every kind and leaves out the rest', async () => {
    const names = await subjectNames(t.db, ann.id, [
      { kind: 'prompt', id: ids.prompt },
      { kind: 'scenario', id: ids.scenario },
      { kind: 'custom_ai', id: ids.custom_ai },
      { kind: 'agent', id: ids.agent },
      { kind: 'agent', id: ids.prompt },
    ]);
    expect(Object.fromEntries(names)).toEqual({
      [`prompt:${ids.prompt}`]: 'Reply',
      [`scenario:${ids.scenario}`]: 'Trip planner',
      [`custom_ai:${ids.custom_ai}`]: 'Pirate',
      [`agent:${ids.agent}`]: 'Researcher',
    });
    expect((await subjectNames(t.db, bob.id, [{ kind: 'prompt', id: ids.prompt }])).size).toBe(0);
    expect((await subjectNames(t.db, ann.id, [])).size).toBe(0);
  });
});

describe('caseMessage', () => {
  const subject = (over: Partial<ResolvedSubject>): ResolvedSubject => ({
    kind: 'scenario',
    id: 'x',
    name: 'x',
    system: '',
    template: null,
    variables: {},
    provider: null,
    model: null,
    temperature: null,
    topP: null,
    maxOutputTokens: null,
    agent: null,
    ...over,
  });

  it('fills a template with the subject’s defaults, then the case’s values', () => {
    const scenario = subject({
      template: 'Plan {{days|3}} days in {{city}} for {{who}}',
      variables: { city: 'Lisbon', who: 'two' },
    });
    expect(caseMessage(scenario, { input: 'ignored', variables: { city: 'Porto' } })).toBe(
      'Plan 3 days in Porto for two',
    );
    expect(caseMessage(scenario, { input: '', variables: { city: '  ', days: '5' } })).toBe(
      'Plan 5 days in Lisbon for two',
    );
  });

  it('sends a custom AI or agent the case’s input, variables filled in', () => {
    const agent = subject({ kind: 'agent', template: null });
    expect(caseMessage(agent, { input: 'Hi {{name}}, {{x}}', variables: { name: 'Ann' } })).toBe(
      'Hi Ann, {{x}}',
    );
  });

  it('falls back to the input when a template is empty, and never evaluates a value', () => {
    expect(caseMessage(subject({ template: '  ' }), { input: 'Hello', variables: {} })).toBe(
      'Hello',
    );
    const prompt = subject({ kind: 'prompt', template: '{{a}} {{__proto__}}' });
    expect(
      caseMessage(prompt, { input: '', variables: { a: '{{b}}', b: 'no', __proto__: 'p' } }),
    ).toBe('{{b}} {{__proto__}}');
  });
});
