import { createAnthropic } from '@ai-sdk/anthropic';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createPerplexity } from '@ai-sdk/perplexity';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import { APICallError, generateText, streamText, type LanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startProviderSim, type ProviderSim } from './server.ts';

let sim: ProviderSim;

beforeAll(async () => {
  sim = await startProviderSim({});
});

afterAll(async () => {
  await sim.close();
});

type Case = { name: string; label: string; model: (apiKey: string) => LanguageModel };

/** Each provider as Chorus's registry builds it, pointed at the simulator. */
const cases: Case[] = [
  {
    name: 'openai chat completions',
    label: 'OpenAI',
    model: (apiKey) => createOpenAI({ apiKey, baseURL: sim.baseUrls.openai }).chat('gpt-4.1'),
  },
  {
    name: 'openai responses',
    label: 'OpenAI',
    model: (apiKey) => createOpenAI({ apiKey, baseURL: sim.baseUrls.openai })('gpt-5-mini'),
  },
  {
    name: 'anthropic',
    label: 'Anthropic',
    model: (apiKey) =>
      createAnthropic({ apiKey, baseURL: sim.baseUrls.anthropic })('claude-sonnet-4-5'),
  },
  {
    name: 'gemini',
    label: 'Gemini',
    model: (apiKey) =>
      createGoogleGenerativeAI({ apiKey, baseURL: sim.baseUrls.gemini })('gemini-2.5-flash'),
  },
  {
    name: 'deepseek',
    label: 'DeepSeek',
    model: (apiKey) => createDeepSeek({ apiKey, baseURL: sim.baseUrls.deepseek })('deepseek-chat'),
  },
  {
    name: 'mistral',
    label: 'Mistral',
    model: (apiKey) =>
      createMistral({ apiKey, baseURL: sim.baseUrls.mistral })('mistral-large-latest'),
  },
  {
    name: 'perplexity',
    label: 'Perplexity',
    model: (apiKey) => createPerplexity({ apiKey, baseURL: sim.baseUrls.perplexity })('sonar'),
  },
  {
    name: 'openrouter',
    label: 'OpenRouter',
    model: (apiKey) =>
      createOpenRouter({ apiKey, baseURL: sim.baseUrls.openrouter })('openai/gpt-4o-mini'),
  },
  {
    name: 'ollama (OpenAI-compatible /v1)',
    label: 'Ollama',
    model: (apiKey) =>
      createOpenAICompatible({
        name: 'ollama',
        apiKey,
        baseURL: `${sim.baseUrls.ollama}/v1`,
        includeUsage: true,
      })('llama2'),
  },
];

const KEY = 'sk-sim-test-key-1234';
const quiet = { maxRetries: 0, onError: () => {} } as const;

/** Reads a stream to its end, counting non-empty text deltas, and keeps the first error. */
const drain = async (result: ReturnType<typeof streamText>) => {
  let deltas = 0;
  let error: unknown;
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta' && part.text !== '') deltas++;
      if (part.type === 'error') error ??= part.error;
    }
  } catch (e) {
    error ??= e;
  }
  return { deltas, error };
};

const latestRequest = () => sim.requests.at(-1);

describe('the provider simulator, through the real AI SDK clients', () => {
  describe.each(cases)('$name', ({ label, model }) => {
    it('streams the same text it returns in one piece, echoing the prompt, with usage', async () => {
      const prompt = 'What is the capital of France?';
      const whole = await generateText({ model: model(KEY), prompt, maxRetries: 0 });
      const streamed = streamText({ model: model(KEY), prompt, ...quiet });

      expect(await streamed.text).toBe(whole.text);
      expect(whole.text).toContain(`Hello from the ${label} simulator`);
      expect(whole.text).toContain(`You said: "${prompt}"`);
      const words = whole.text.split(' ').length;
      expect(whole.usage.outputTokens).toBe(words);
      expect(whole.usage.inputTokens).toBeGreaterThan(0);
      const usage = await streamed.usage;
      expect(usage.outputTokens).toBe(words);
      expect(usage.inputTokens).toBeGreaterThan(0);
    });

    it('surfaces 401, 429 and 500 as APICallError with that status code', async () => {
      const statusOf = async (apiKey: string, prompt = 'hi') => {
        const error = await generateText({ model: model(apiKey), prompt, maxRetries: 0 }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(APICallError.isInstance(error)).toBe(true);
        return error as APICallError;
      };
      expect((await statusOf('sk-invalid-key')).statusCode).toBe(401);
      const rateLimited = await statusOf('sk-ratelimit');
      expect(rateLimited.statusCode).toBe(429);
      expect(rateLimited.responseHeaders?.['retry-after']).toBe('1');
      expect((await statusOf('sk-error500')).statusCode).toBe(500);
      expect((await statusOf(KEY, 'hello [sim:429]')).statusCode).toBe(429);
      expect((await statusOf(KEY, 'hello [sim:500]')).statusCode).toBe(500);
    });

    it('errors a stream after exactly N text deltas with [sim:fail-after N]', async () => {
      const result = streamText({ model: model(KEY), prompt: 'go [sim:fail-after 3]', ...quiet });
      const { deltas, error } = await drain(result);
      expect(deltas).toBe(3);
      expect(error).toBeDefined();
      expect(latestRequest()?.outcome).toBe('dropped-by-sim');
    });

    it('replies with exactly N tokens for [sim:tokens N]', async () => {
      const { text, usage } = await generateText({
        model: model(KEY),
        prompt: 'count [sim:tokens 5]',
        maxRetries: 0,
      });
      expect(text).toBe('tok1 tok2 tok3 tok4 tok5');
      expect(usage.outputTokens).toBe(5);
    });
  });

  it('keeps a [sim:hang] stream open until the client aborts, and notices the disconnect', async () => {
    const controller = new AbortController();
    const result = streamText({
      model: cases[0]!.model(KEY),
      prompt: 'wait [sim:hang]',
      abortSignal: controller.signal,
      ...quiet,
    });
    const reader = result.textStream[Symbol.asyncIterator]();
    expect((await reader.next()).value).toBe('Hello');
    const request = latestRequest();
    expect(request?.outcome).toBe('pending');

    controller.abort();
    await drain(result);
    await vi.waitFor(() => expect(request?.outcome).toBe('client-disconnected'));
  });

  it('ends the 20 s wait of a `slow` key as soon as the client gives up', async () => {
    const started = Date.now();
    const error = await generateText({
      model: cases[2]!.model('sk-ant-slow'),
      prompt: 'hi',
      abortSignal: AbortSignal.timeout(300),
      maxRetries: 0,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeDefined();
    expect(Date.now() - started).toBeLessThan(5_000);
    await vi.waitFor(() => expect(latestRequest()?.outcome).toBe('client-disconnected'));
  });

  it('pauses between chunks for [sim:delay-ms N]', async () => {
    const started = Date.now();
    const result = streamText({
      model: cases[0]!.model(KEY),
      prompt: '[sim:tokens 4] [sim:delay-ms 60]',
      ...quiet,
    });
    expect(await result.text).toBe('tok1 tok2 tok3 tok4');
    expect(Date.now() - started).toBeGreaterThanOrEqual(170);
  });

  it('gives Perplexity answers two citation sources, streamed or not', async () => {
    const model = cases.find((c) => c.name === 'perplexity')!.model(KEY);
    const whole = await generateText({ model, prompt: 'latest news', maxRetries: 0 });
    expect(whole.sources).toHaveLength(2);
    expect(whole.sources.map((s) => s.sourceType === 'url' && s.url)).toEqual([
      'https://example.com/perplexity-sim/source-1',
      'https://example.com/perplexity-sim/source-2',
    ]);
    const streamed = streamText({ model, prompt: 'latest news', ...quiet });
    expect(await streamed.sources).toHaveLength(2);
  });

  it('grounds Gemini answers with web sources when the google_search tool is on', async () => {
    const google = createGoogleGenerativeAI({ apiKey: KEY, baseURL: sim.baseUrls.gemini });
    const tools = { google_search: google.tools.googleSearch({}) };
    const whole = await generateText({
      model: google('gemini-2.5-flash'),
      prompt: 'weather in Paris',
      tools,
      maxRetries: 0,
    });
    expect(whole.sources.length).toBeGreaterThan(0);
    expect(
      whole.sources.every(
        (s) => s.sourceType === 'url' && s.url.startsWith('https://example.com/'),
      ),
    ).toBe(true);
    const streamed = streamText({
      model: google('gemini-2.5-flash'),
      prompt: 'weather',
      tools,
      ...quiet,
    });
    expect((await streamed.sources).length).toBeGreaterThan(0);

    const plain = await generateText({
      model: google('gemini-2.5-flash'),
      prompt: 'hi',
      maxRetries: 0,
    });
    expect(plain.sources).toHaveLength(0);
  });

  it.each([
    ['perplexity', /user and assistant roles should be alternating/],
    ['deepseek', /interleave the user\/assistant messages/],
  ])('answers [sim:alternating] with a 400 for %s', async (name, message) => {
    const model = cases.find((c) => c.name === name)!.model(KEY);
    const error = await generateText({ model, prompt: 'x [sim:alternating]', maxRetries: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(APICallError.isInstance(error) && error.statusCode).toBe(400);
    expect((error as APICallError).message).toMatch(message);
  });

  it('answers a `badformat` key with a body the client cannot parse', async () => {
    for (const c of cases) {
      await expect(
        generateText({ model: c.model('sk-badformat'), prompt: 'hi', maxRetries: 0 }),
      ).rejects.toThrow();
    }
  });

  it('answers a missing key with 401 in the provider’s own error shape', async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const openai = await post(`${sim.baseUrls.openai}/chat/completions`, { model: 'gpt-4.1' });
    expect(openai.status).toBe(401);
    expect(await openai.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: null },
    });
    const anthropic = await post(
      `${sim.baseUrls.anthropic}/messages`,
      {},
      { 'anthropic-version': '2023-06-01' },
    );
    expect(anthropic.status).toBe(401);
    expect(await anthropic.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
    });
    const gemini = await post(`${sim.baseUrls.gemini}/models/gemini-2.5-flash:generateContent`, {});
    expect(gemini.status).toBe(401);
    expect(await gemini.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });

  it('reads Ollama’s native /api/chat as NDJSON, line by line', async () => {
    const body = { model: 'llama2', messages: [{ role: 'user', content: 'Why is the sky blue?' }] };
    const response = await fetch(`${sim.baseUrls.ollama}/api/chat`, {
      method: 'POST',
      body: JSON.stringify(body),
    });
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await response.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const last = lines.at(-1)!;
    expect(lines.slice(0, -1).every((l) => l.done === false && l.model === 'llama2')).toBe(true);
    expect(last).toMatchObject({ done: true, done_reason: 'stop', message: { content: '' } });
    expect(last.eval_count).toBe(lines.length - 1);
    const streamedText = lines.map((l) => (l.message as { content: string }).content).join('');

    const whole = await fetch(`${sim.baseUrls.ollama}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ ...body, stream: false }),
    }).then((r) => r.json() as Promise<{ message: { content: string }; done: boolean }>);
    expect(whole.done).toBe(true);
    expect(whole.message.content).toBe(streamedText);
    expect(streamedText).toContain('Why is the sky blue?');
  });

  describe('model lists', () => {
    const get = (url: string, apiKey?: string) =>
      fetch(url, apiKey ? { headers: { authorization: `Bearer ${apiKey}` } } : {}).then(
        (r) => r.json() as Promise<Record<string, unknown>>,
      );

    it('lists OpenAI models as {object:"list", data:[{id, object:"model"}]}', async () => {
      const list = await get(`${sim.baseUrls.openai}/models`, KEY);
      expect(list.object).toBe('list');
      expect(list.data).toContainEqual(expect.objectContaining({ id: 'gpt-4.1', object: 'model' }));
    });

    it('lists OpenRouter models with name, description, context length and pricing', async () => {
      const list = await get(`${sim.baseUrls.openrouter}/models`);
      expect((list.data as unknown[]).length).toBeGreaterThan(0);
      for (const model of list.data as unknown[]) {
        expect(model).toMatchObject({
          id: expect.any(String),
          name: expect.any(String),
          description: expect.any(String),
          context_length: expect.any(Number),
          pricing: { prompt: expect.any(String), completion: expect.any(String) },
        });
      }
    });

    it('lists Ollama models on /v1/models and /api/tags', async () => {
      const v1 = await get(`${sim.baseUrls.ollama}/v1/models`);
      expect(v1).toMatchObject({ object: 'list' });
      expect((v1.data as { id: string }[]).map((m) => m.id)).toEqual([
        'llama2:latest',
        'mistral:latest',
        'codellama:latest',
      ]);
      const tags = await get(`${sim.baseUrls.ollama}/api/tags`);
      expect(tags.models).toContainEqual(expect.objectContaining({ name: 'llama2:latest' }));
    });

    it('answers empty lists for an `empty-models` key and a wrong shape for `badformat`', async () => {
      expect(await get(`${sim.baseUrls.openai}/models`, 'sk-empty-models')).toEqual({
        object: 'list',
        data: [],
      });
      expect(await get(`${sim.baseUrls.openrouter}/models`, 'sk-empty-models')).toEqual({
        data: [],
      });
      expect(await get(`${sim.baseUrls.openai}/models`, 'sk-badformat')).toEqual({
        unexpected: true,
      });
    });
  });

  it('records each request with its provider and the key masked', async () => {
    await generateText({ model: cases[4]!.model(KEY), prompt: 'record me', maxRetries: 0 });
    const request = latestRequest()!;
    expect(request).toMatchObject({
      provider: 'deepseek',
      method: 'POST',
      path: '/deepseek/chat/completions',
      status: 200,
      outcome: 'completed',
    });
    expect(request.headers.authorization).toBe('Bearer sk-…1234');
    expect(JSON.stringify(request)).not.toContain(KEY);
    expect(request.body).toMatchObject({ model: 'deepseek-chat' });
  });
});
