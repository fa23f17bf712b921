import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Message } from '@chorus/shared/api/conversations';
import { onboardingSchema, type Onboarding } from '@chorus/shared/api/onboarding';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;

let t: TestApp;
let admin: Client;

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
  // The first account of a workspace is its super admin.
  admin = await t.user('start-root@example.com');
});
afterAll(() => t.close());

const checklist = async (u: Client): Promise<Onboarding> => {
  const res = await u.get<Onboarding>('/rest/v1/onboarding');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return onboardingSchema.parse(res.body);
};

const doneSteps = async (u: Client) =>
  (await checklist(u)).steps.filter((s) => s.done).map((s) => s.id);

const waitFor = async (check: () => Promise<boolean>, ms = 5_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
};

/** One chat turn through the real chat function; resolves once the reply is stored. */
const chatOnce = async (u: Client, text: string) => {
  const conv = (await u.post<Conversation>('/rest/v1/conversations', { title: 'First' })).body;
  const res = await u.post('/functions/v1/chat', {
    conversation_id: conv.id,
    provider: 'openai',
    text,
  });
  expect(res.status).toBe(200);
  await waitFor(async () => {
    const messages = (await u.get<Message[]>(`/rest/v1/conversations/${conv.id}/messages`)).body;
    return messages.some((m) => m.role === 'assistant' && m.status !== 'streaming');
  });
};

describe('GET /rest/v1/onboarding', () => {
  it('shows a new user the steps of the areas that exist, none done, each with its action', async () => {
    const ann = await t.user('start-new@example.com');
    const list = await checklist(ann);
    expect(list.steps.map((s) => s.id)).toEqual(['key', 'chat', 'prompt', 'scenario']);
    expect(list.steps.map((s) => s.action.href)).toEqual([
      '/copy-api-keys',
      '/chat',
      '/prompts',
      '/scenarios',
    ]);
    for (const step of list.steps) {
      expect(step.done).toBe(false);
      expect(step.title).not.toBe('');
      expect(step.description).not.toBe('');
      expect(step.action.label).not.toBe('');
    }
    expect(list).toMatchObject({ completed: 0, total: 4, dismissed: false });
  });

  it('ticks each step after the real action, and never for what another user did', async () => {
    const bea = await t.user('start-bea@example.com');
    const cal = await t.user('start-cal@example.com');

    expect(
      (await bea.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-start-0001' })).status,
    ).toBe(200);
    expect(await doneSteps(bea)).toEqual(['key']);

    await chatOnce(bea, 'Hello there');
    expect(await doneSteps(bea)).toEqual(['key', 'chat']);

    const prompt = await bea.post('/rest/v1/prompts', { title: 'Mine', content: 'Say hi' });
    expect(prompt.status).toBe(201);
    expect(await doneSteps(bea)).toEqual(['key', 'chat', 'prompt']);

    const run = await bea.post('/functions/v1/scenario-run', {
      user_prompt: 'Compare [sim:tokens 3]',
      targets: [{ provider: 'openai', model: '' }],
      stream: false,
    });
    expect(run.status).toBe(200);
    const all = await checklist(bea);
    expect(all.steps.every((s) => s.done)).toBe(true);
    expect(all).toMatchObject({ completed: 4, total: 4 });

    // Everything Bea did is hers alone.
    expect(await checklist(cal)).toMatchObject({ completed: 0, total: 4 });
  });

  it('does not count a reply that failed as a first reply', async () => {
    const dan = await t.user('start-dan@example.com');
    await dan.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-invalid-start-0001' });
    await chatOnce(dan, 'Hello?');
    expect(await doneSteps(dan)).toEqual(['key']);
  });

  it('counts a key the workspace provides: with a system key the key step is done for everyone', async () => {
    const eve = await t.user('start-eve@example.com');
    expect(await doneSteps(eve)).toEqual([]);
    const put = await admin.request('PUT', '/rest/v1/admin/api-keys/system/mistral', {
      api_key: 'mistral-start-system-0001',
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    try {
      expect(await doneSteps(eve)).toEqual(['key']);
      expect(await doneSteps(await t.user('start-fay@example.com'))).toEqual(['key']);
    } finally {
      expect((await admin.del('/rest/v1/admin/api-keys/system/mistral')).status).toBe(204);
    }
    expect(await doneSteps(eve)).toEqual([]);
  });

  it('refuses a guest', async () => {
    const res = await t.client().get<{ code: string }>('/rest/v1/onboarding');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('auth:required');
  });
});

describe('PATCH /rest/v1/onboarding', () => {
  it('hides the checklist and shows it again, for that user only', async () => {
    const gus = await t.user('start-gus@example.com');
    const hal = await t.user('start-hal@example.com');
    const hidden = await gus.patch<Onboarding>('/rest/v1/onboarding', { dismissed: true });
    expect(hidden.status).toBe(200);
    expect(onboardingSchema.parse(hidden.body)).toMatchObject({ dismissed: true, total: 4 });
    expect((await checklist(gus)).dismissed).toBe(true);
    expect((await checklist(hal)).dismissed).toBe(false);

    const shown = await gus.patch<Onboarding>('/rest/v1/onboarding', { dismissed: false });
    expect(shown.status).toBe(200);
    expect(shown.body.dismissed).toBe(false);
    expect((await checklist(gus)).dismissed).toBe(false);
  });

  it('refuses a body that is not a dismissal, and a guest', async () => {
    const ivy = await t.user('start-ivy@example.com');
    for (const body of [{}, { dismissed: 'yes' }, { dismissed: true, extra: 1 }]) {
      const res = await ivy.patch<{ code: string }>('/rest/v1/onboarding', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('bad_request:validation');
    }
    expect((await t.client().patch('/rest/v1/onboarding', { dismissed: true })).status).toBe(401);
  });
});
