import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyMessages } from '@chorus/shared/messages';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    providerSim: true,
  });
});
afterAll(async () => {
  await t.close();
});

const ask = (content: string) => [{ role: 'user' as const, content }];

describe('POST /functions/v1/ai-api-proxy', () => {
  it('answers with the model response using the user’s stored key', async () => {
    const u = await t.user('proxy@example.com');
    await u.request('PUT', '/rest/v1/api-keys/mistral', { api_key: 'mistral-test-0001' });
    const res = await u.post<{ response: string }>('/functions/v1/ai-api-proxy', {
      provider: 'mistral',
      messages: ask('Summarise the plan'),
    });
    expect(res.status).toBe(200);
    expect(res.body.response).toContain('Summarise the plan');
    expect(res.body.response).toContain('mistral-large-latest');
  });

  it('accepts an explicit key for providers that allow direct calls', async () => {
    const u = await t.user('proxy-direct@example.com');
    const res = await u.post<{ response: string }>('/functions/v1/ai-api-proxy', {
      provider: 'deepseek',
      apiKey: 'sk-direct-0001',
      model: 'deepseek-chat',
      messages: ask('hi'),
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['openai', 'OpenAI'],
    ['anthropic', 'Anthropic'],
    ['gemini', 'Gemini'],
  ])('refuses a direct %s call with the spec message', async (provider, name) => {
    const u = await t.user(`direct-${provider}@example.com`);
    const res = await u.post('/functions/v1/ai-api-proxy', {
      provider,
      apiKey: 'sk-x',
      messages: ask('hi'),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: keyMessages.directCallNotAllowed(name) });
  });

  it('says when no key is available, when the provider fails and when it is too slow', async () => {
    const u = await t.user('proxy-errors@example.com');
    const missing = await u.post('/functions/v1/ai-api-proxy', {
      provider: 'anthropic',
      messages: ask('hi'),
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'keys:missing' });

    await u.request('PUT', '/rest/v1/api-keys/mistral', { api_key: 'mistral-invalid' });
    const rejected = await u.post('/functions/v1/ai-api-proxy', {
      provider: 'mistral',
      messages: ask('hi'),
    });
    expect(rejected.status).toBe(502);
    expect(rejected.body).toMatchObject({
      error: 'Mistral rejected the API key. Check it on the API keys page.',
    });

    await u.request('PUT', '/rest/v1/api-keys/mistral', { api_key: 'mistral-slow' });
    // The slow key answers after 20 s: a 504 means the 1 s limit cut the call off.
    const slow = await u.post('/functions/v1/ai-api-proxy', {
      provider: 'mistral',
      messages: ask('hi'),
      timeout: 1_000,
    });
    expect(slow.status).toBe(504);
  });

  it('refuses guests and bad input', async () => {
    expect(
      (
        await t
          .client()
          .post('/functions/v1/ai-api-proxy', { provider: 'ollama', messages: ask('hi') })
      ).status,
    ).toBe(401);
    const u = await t.user('proxy-bad@example.com');
    for (const body of [
      { provider: 'ollama', messages: [] },
      { provider: 'ollama' },
      { provider: 'ollama', messages: ask('x'), timeout: 5 },
    ]) {
      expect((await u.post('/functions/v1/ai-api-proxy', body)).status, JSON.stringify(body)).toBe(
        400,
      );
    }
  });
});

describe('GET /functions/v1/openrouter-models', () => {
  it('lists OpenRouter models for signed-in users', async () => {
    expect((await t.client().get('/functions/v1/openrouter-models')).status).toBe(401);
    const u = await t.user('models@example.com');
    const res = await u.get<{ models: { id: string; name: string }[] }>(
      '/functions/v1/openrouter-models',
    );
    expect(res.status).toBe(200);
    expect(res.body.models.length).toBeGreaterThan(0);
    expect(res.body.models[0]).toMatchObject({ id: expect.any(String), name: expect.any(String) });
  });
});
