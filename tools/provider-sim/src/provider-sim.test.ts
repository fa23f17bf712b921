import { createAnthropic } from '@ai-sdk/anthropic';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createPerplexity } from '@ai-sdk/perplexity';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import {
  APICallError,
  cosineSimilarity,
  embed,
  embedMany,
  generateText,
  stepCountIs,
  streamText,
  tool,
  type EmbeddingModel,
  type LanguageModel,
} from 'ai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { readDirectives, readJsonReply, readToolMarkers } from './script.ts';
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

    it('answers 429 (Retry-After: 1) to the first N of the same text with [sim:429-times N]', async () => {
      const prompt = `backoff ${label} ${Math.random()} [sim:429-times 2]`;
      const send = (text = prompt) =>
        generateText({ model: model(KEY), prompt: text, maxRetries: 0 }).then(
          (r) => ({ text: r.text, status: 200, retryAfter: undefined }),
          (e: unknown) => {
            if (!APICallError.isInstance(e)) throw e;
            const retryAfter = e.responseHeaders?.['retry-after'];
            return { text: '', status: e.statusCode, retryAfter };
          },
        );
      expect(await send()).toMatchObject({ status: 429, retryAfter: '1' });
      // Another text keeps a count of its own.
      expect(await send(`${prompt} other`)).toMatchObject({ status: 429 });
      expect(await send()).toMatchObject({ status: 429, retryAfter: '1' });
      const third = await send();
      expect(third.status).toBe(200);
      expect(third.text).toContain(`Hello from the ${label} simulator`);
      expect((await send()).status).toBe(200);
    });

    it('replies with exactly the JSON object of the last [sim:json {…}], streamed or not', async () => {
      const prompt =
        'grade [sim:json {"pass":false,"score":0}] this, by the rubric: ' +
        '[sim:json {"pass": true, "score": 0.9, "reason": "Polite [and] {brief}"}]';
      const expected = '{"pass": true, "score": 0.9, "reason": "Polite [and] {brief}"}';
      const { text, usage } = await generateText({ model: model(KEY), prompt, maxRetries: 0 });
      expect(text).toBe(expected);
      expect(usage.outputTokens).toBe(expected.split(' ').length);
      expect(await streamText({ model: model(KEY), prompt, ...quiet }).text).toBe(expected);
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

  it('holds a [sim:hang N] stream after N tokens; after its headers alone for N = 0', async () => {
    for (const [n, expected] of [
      [0, ''],
      [3, 'Hello from the'],
    ] as const) {
      const controller = new AbortController();
      const res = await fetch(`${sim.baseUrls.openai}/chat/completions`, {
        method: 'POST',
        signal: controller.signal,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gpt-4.1',
          stream: true,
          messages: [{ role: 'user', content: `wait [sim:hang ${n}]` }],
        }),
      });
      expect(res.status).toBe(200);
      let sse = '';
      const reader = res.body!.getReader();
      const reading = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          sse += new TextDecoder().decode(value);
        }
      })().catch(() => undefined);
      // Longer than the whole reply takes to stream when nothing holds it.
      await new Promise((r) => setTimeout(r, 300));
      const text = sse
        .split('\n')
        .filter((l) => l.startsWith('data: {'))
        .map((l) => JSON.parse(l.slice(6)) as { choices: { delta: { content?: string } }[] })
        .map((c) => c.choices[0]?.delta.content ?? '')
        .join('');
      expect(text).toBe(expected);
      expect(sse).not.toContain('[DONE]');
      expect(latestRequest()?.outcome).toBe('pending');
      controller.abort();
      await reading;
    }
  });

  it('ends the 20 s wait of a `slow` key as soon as the client gives up', async () => {
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
    // Recorded as a disconnect, not as a reply sent after the 20 s.
    await vi.waitFor(() => expect(latestRequest()?.outcome).toBe('client-disconnected'));
  });

  it('reads [sim:delay-ms N] as the pause between chunks, and still streams every chunk', async () => {
    // How long the pauses take is the timer's business, not asserted here (no timing in tests).
    expect(readDirectives('[sim:tokens 4] [sim:delay-ms 60]')).toMatchObject({ delayMs: 60 });
    const result = streamText({
      model: cases[0]!.model(KEY),
      prompt: '[sim:tokens 4] [sim:delay-ms 5]',
      ...quiet,
    });
    expect(await result.text).toBe('tok1 tok2 tok3 tok4');
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

describe('tool calls scripted with [sim:tool …] markers', () => {
  /** Every case but Perplexity, whose API has no tools. */
  const toolCases = cases.filter((c) => c.name !== 'perplexity');

  const results: Record<string, number> = { '2*21': 42, '1+1': 2 };
  const tools = {
    calculator: tool({
      description: 'Evaluates an arithmetic expression.',
      inputSchema: z.object({ expression: z.string() }),
      execute: ({ expression }) => results[expression] ?? 'unknown expression',
    }),
    weather: tool({
      description: 'Tells the weather in a city.',
      inputSchema: z.object({ city: z.string() }),
      execute: ({ city }) => `Sunny in ${city}`,
    }),
  };
  const twoCalls =
    'Plan my day [sim:tool calculator {"expression":"2*21"}] [sim:tool weather {"city":"Paris"}]';

  /** Runs the agent loop streamed or not, and gives the steps in one shape. */
  const runLoop = async (model: LanguageModel, prompt: string, mode: 'generate' | 'stream') => {
    const options = { model, prompt, tools, stopWhen: stepCountIs(3) };
    const result =
      mode === 'generate'
        ? await generateText({ ...options, maxRetries: 0 })
        : streamText({ ...options, ...quiet });
    return (await result.steps).map((step) => ({
      calls: step.toolCalls.map((call) => ({ name: call.toolName, input: call.input })),
      finishReason: step.finishReason,
      text: step.text,
      usage: step.usage,
    }));
  };

  describe.each(toolCases)('$name', ({ model }) => {
    it.each(['generate', 'stream'] as const)(
      'calls two tools in one turn, then quotes both results and stops (%s)',
      async (mode) => {
        const steps = await runLoop(model(KEY), twoCalls, mode);
        expect(steps).toHaveLength(2);
        expect(steps[0]).toMatchObject({
          finishReason: 'tool-calls',
          text: '',
          calls: [
            { name: 'calculator', input: { expression: '2*21' } },
            { name: 'weather', input: { city: 'Paris' } },
          ],
        });
        expect(steps[0]!.usage.outputTokens).toBeGreaterThan(0);
        expect(steps[0]!.usage.inputTokens).toBeGreaterThan(0);
        expect(steps[1]).toMatchObject({
          finishReason: 'stop',
          calls: [],
          text: 'Tool calculator returned: 42. Tool weather returned: Sunny in Paris.',
        });
        expect(steps[1]!.usage.outputTokens).toBe(steps[1]!.text.split(' ').length);
      },
    );

    it.each(['generate', 'stream'] as const)(
      'issues [sim:tool2 …] calls on the second turn (%s)',
      async (mode) => {
        const prompt =
          'Two steps [sim:tool calculator {"expression":"2*21"}] [sim:tool2 calculator {"expression":"1+1"}]';
        const steps = await runLoop(model(KEY), prompt, mode);
        expect(steps.map((s) => s.calls)).toEqual([
          [{ name: 'calculator', input: { expression: '2*21' } }],
          [{ name: 'calculator', input: { expression: '1+1' } }],
          [],
        ]);
        expect(steps[2]).toMatchObject({
          finishReason: 'stop',
          text: 'Tool calculator returned: 2.',
        });
      },
    );

    it('calls tools again when the user speaks after the results came back', async () => {
      const result = await generateText({
        model: model(KEY),
        tools,
        stopWhen: stepCountIs(1),
        maxRetries: 0,
        messages: [
          { role: 'user', content: 'First [sim:tool weather {"city":"Paris"}]' },
          {
            role: 'assistant',
            content: [
              {
                type: 'tool-call',
                toolCallId: 'c1',
                toolName: 'weather',
                input: { city: 'Paris' },
              },
            ],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'c1',
                toolName: 'weather',
                output: { type: 'text', value: 'Sunny in Paris' },
              },
            ],
          },
          { role: 'user', content: 'Now Rome [sim:tool weather {"city":"Rome"}]' },
        ],
      });
      expect(result.toolCalls.map((c) => [c.toolName, c.input])).toEqual([
        ['weather', { city: 'Rome' }],
      ]);
    });

    it('records the tools offered, in one shape for every provider', async () => {
      await generateText({ model: model(KEY), prompt: 'hi', tools, maxRetries: 0 });
      expect(latestRequest()?.tools).toEqual([
        {
          name: 'calculator',
          description: 'Evaluates an arithmetic expression.',
          parameters: expect.objectContaining({
            type: 'object',
            properties: { expression: { type: 'string' } },
          }),
        },
        {
          name: 'weather',
          description: 'Tells the weather in a city.',
          parameters: expect.objectContaining({ properties: { city: { type: 'string' } } }),
        },
      ]);
    });

    it('answers in text when the marker names a tool it was not offered, or tools are off', async () => {
      const unknown = await generateText({
        model: model(KEY),
        prompt: 'Search [sim:tool search {"q":"x"}]',
        tools,
        maxRetries: 0,
      });
      expect(unknown.toolCalls).toEqual([]);
      expect(unknown.text).toContain('simulator');

      const none = await generateText({
        model: model(KEY),
        prompt: twoCalls,
        tools,
        toolChoice: 'none',
        maxRetries: 0,
      });
      expect(none.toolCalls).toEqual([]);
      expect(none.text).toContain('simulator');
    });
  });

  it('ignores tools on Perplexity, which has none, even when a request sends them', async () => {
    const perplexity = cases.find((c) => c.name === 'perplexity')!.model(KEY);
    const viaSdk = await generateText({
      model: perplexity,
      prompt: twoCalls,
      tools,
      maxRetries: 0,
    });
    expect(viaSdk.toolCalls).toEqual([]);
    expect(viaSdk.text).toContain('Hello from the Perplexity simulator');

    const response = await fetch(`${sim.baseUrls.perplexity}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'sonar',
        messages: [{ role: 'user', content: twoCalls }],
        tools: [{ type: 'function', function: { name: 'calculator', parameters: {} } }],
      }),
    });
    const body = (await response.json()) as {
      choices: { message: Record<string, unknown>; finish_reason: string }[];
    };
    expect(body.choices[0]!.finish_reason).toBe('stop');
    expect(body.choices[0]!.message.tool_calls).toBeUndefined();
    expect(latestRequest()?.tools).toEqual([]);
  });

  it('speaks Ollama’s native tool calls on /api/chat, arguments as objects', async () => {
    const chat = (body: Record<string, unknown>) =>
      fetch(`${sim.baseUrls.ollama}/api/chat`, { method: 'POST', body: JSON.stringify(body) });
    const request = {
      model: 'llama3.1',
      messages: [{ role: 'user', content: twoCalls }],
      tools: Object.entries(tools).map(([name]) => ({
        type: 'function',
        function: { name, parameters: { type: 'object' } },
      })),
    };
    const whole = (await chat({ ...request, stream: false }).then((r) => r.json())) as {
      message: { tool_calls: { function: { name: string; arguments: unknown } }[] };
      done_reason: string;
    };
    expect(whole.done_reason).toBe('stop');
    expect(whole.message.tool_calls.map((c) => c.function)).toMatchObject([
      { name: 'calculator', arguments: { expression: '2*21' } },
      { name: 'weather', arguments: { city: 'Paris' } },
    ]);

    const lines = (await chat(request).then((r) => r.text()))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { message: { tool_calls?: unknown[] }; done: boolean });
    const streamed = lines.flatMap(
      (l) => l.message.tool_calls ?? [],
    ) as typeof whole.message.tool_calls;
    expect(streamed.map((c) => c.function)).toEqual(
      whole.message.tool_calls.map((c) => c.function),
    );
    expect(lines.at(-1)?.done).toBe(true);

    const answer = (await chat({
      ...request,
      stream: false,
      messages: [
        ...request.messages,
        { role: 'assistant', content: '', tool_calls: whole.message.tool_calls },
        { role: 'tool', tool_name: 'calculator', content: '42' },
        { role: 'tool', tool_name: 'weather', content: 'Sunny in Paris' },
      ],
    }).then((r) => r.json())) as { message: { content: string; tool_calls?: unknown } };
    expect(answer.message.content).toBe(
      'Tool calculator returned: 42. Tool weather returned: Sunny in Paris.',
    );
    expect(answer.message.tool_calls).toBeUndefined();
  });

  it('reads markers whose JSON holds brackets, braces and quotes, and skips broken ones', () => {
    const text =
      'a [sim:tool search {"q":"a ] b","tags":["x","y"],"nested":{"s":"}\\""}}] ' +
      '[sim:tool clock] [sim:tool2 calculator {"expression":"1+1"}] ' +
      '[sim:tool broken {"q":] [sim:tool list [1,2]] [sim:tool unclosed {"a":1}';
    expect(readToolMarkers(text)).toEqual([
      { turn: 1, name: 'search', input: { q: 'a ] b', tags: ['x', 'y'], nested: { s: '}"' } } },
      { turn: 1, name: 'clock', input: {} },
      { turn: 2, name: 'calculator', input: { expression: '1+1' } },
    ]);
  });
});

describe('scripted replies and rate limits', () => {
  it('reads [sim:429-times N] as a directive beside the others', () => {
    expect(readDirectives('x [sim:429-times 3] [sim:tokens 2]')).toMatchObject({
      rateLimitTimes: 3,
      tokens: 2,
    });
    expect(readDirectives('x [sim:429-times]').rateLimitTimes).toBeUndefined();
  });

  it('takes the last well-formed [sim:json {…}] marker, exactly as written', () => {
    expect(readJsonReply('no marker')).toBeNull();
    expect(readJsonReply('[sim:json {"a":1}] then [sim:json {"b":"}]"}]')).toBe('{"b":"}]"}');
    expect(readJsonReply('[sim:json {"a":1}] [sim:json {"broken":}] [sim:json [1,2]]')).toBe(
      '{"a":1}',
    );
    expect(readJsonReply('[sim:json{"tight":true}]')).toBe('{"tight":true}');
    expect(readJsonReply('[sim:json {"unclosed":1}')).toBeNull();
    expect(readJsonReply('[sim:json {"a":1} trailing]')).toBeNull();
  });
});

describe('embeddings', () => {
  type EmbeddingCase = {
    name: string;
    dimensions: number;
    /** Whether the API reports token usage (Gemini's embedContent does not). */
    usage: boolean;
    model: (apiKey: string) => EmbeddingModel;
  };

  /** Each provider's embedding model through its AI SDK package, with the real default size. */
  const embeddingCases: EmbeddingCase[] = [
    {
      name: 'openai text-embedding-3-small',
      dimensions: 1536,
      usage: true,
      model: (apiKey) =>
        createOpenAI({ apiKey, baseURL: sim.baseUrls.openai }).embedding('text-embedding-3-small'),
    },
    {
      name: 'openai text-embedding-3-large',
      dimensions: 3072,
      usage: true,
      model: (apiKey) =>
        createOpenAI({ apiKey, baseURL: sim.baseUrls.openai }).embedding('text-embedding-3-large'),
    },
    {
      name: 'gemini text-embedding-004',
      dimensions: 768,
      usage: false,
      model: (apiKey) =>
        createGoogleGenerativeAI({ apiKey, baseURL: sim.baseUrls.gemini }).embedding(
          'text-embedding-004',
        ),
    },
    {
      name: 'gemini gemini-embedding-001',
      dimensions: 3072,
      usage: false,
      model: (apiKey) =>
        createGoogleGenerativeAI({ apiKey, baseURL: sim.baseUrls.gemini }).embedding(
          'gemini-embedding-001',
        ),
    },
    {
      name: 'mistral mistral-embed',
      dimensions: 1024,
      usage: true,
      model: (apiKey) =>
        createMistral({ apiKey, baseURL: sim.baseUrls.mistral }).embedding('mistral-embed'),
    },
    {
      name: 'ollama nomic-embed-text (OpenAI-compatible /v1)',
      dimensions: 768,
      usage: true,
      model: (apiKey) =>
        createOpenAICompatible({
          name: 'ollama',
          apiKey,
          baseURL: `${sim.baseUrls.ollama}/v1`,
        }).embeddingModel('nomic-embed-text'),
    },
    {
      name: 'openrouter openai/text-embedding-3-small',
      dimensions: 1536,
      usage: true,
      model: (apiKey) =>
        createOpenRouter({ apiKey, baseURL: sim.baseUrls.openrouter }).textEmbeddingModel(
          'openai/text-embedding-3-small',
        ),
    },
  ];

  const query = 'The cat sat on the warm mat';
  const documents = [
    'A cat sat on a mat',
    'Quarterly revenue grew by ten percent',
    'The cat sat on the warm mat',
  ];
  const norm = (v: number[]) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));

  describe.each(embeddingCases)('$name', ({ dimensions, usage, model }) => {
    it('gives unit vectors of the model’s size, the same for the same text, closer for shared words', async () => {
      const one = await embed({ model: model(KEY), value: query, maxRetries: 0 });
      const many = await embedMany({ model: model(KEY), values: documents, maxRetries: 0 });

      expect(one.embedding).toHaveLength(dimensions);
      expect(norm(one.embedding)).toBeCloseTo(1, 5);
      expect(many.embeddings).toHaveLength(3);
      expect(many.embeddings[2]).toEqual(one.embedding);
      const [similar, unrelated] = many.embeddings.map((e) => cosineSimilarity(one.embedding, e));
      expect(similar).toBeGreaterThan(0.5);
      expect(unrelated).toBeLessThan(0.2);
      expect(similar).toBeGreaterThan(unrelated! + 0.4);
      if (usage) {
        expect(one.usage.tokens).toBe(query.split(' ').length);
        expect(many.usage.tokens).toBe(documents.join(' ').split(' ').length);
      }
    });

    it('answers nothing to an input with [sim:hang] until the client gives up', async () => {
      const controller = new AbortController();
      const pending = embedMany({
        model: model(KEY),
        values: ['fine', 'wait [sim:hang]'],
        maxRetries: 0,
        abortSignal: controller.signal,
      }).then(
        () => 'answered',
        () => 'aborted',
      );
      await vi.waitFor(() => expect(sim.requests.at(-1)?.outcome).toBe('pending'));
      controller.abort();
      expect(await pending).toBe('aborted');
      await vi.waitFor(() => expect(sim.requests.at(-1)?.outcome).toBe('client-disconnected'));
    });

    it('answers 401, 429 and 500 for the scripted keys', async () => {
      for (const [apiKey, status] of [
        ['sk-invalid-key', 401],
        ['sk-ratelimit', 429],
        ['sk-error500', 500],
      ] as const) {
        const error = await embed({ model: model(apiKey), value: 'hi', maxRetries: 0 }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(APICallError.isInstance(error) && error.statusCode).toBe(status);
      }
    });
  });

  it.each(embeddingCases.filter((c) => !c.name.startsWith('openrouter')))(
    'honours the requested dimensions: $name',
    async ({ model }) => {
      const short = await embed({
        model: model(KEY),
        value: query,
        dimensions: 256,
        maxRetries: 0,
      });
      expect(short.embedding).toHaveLength(256);
      expect(norm(short.embedding)).toBeCloseTo(1, 5);
      const again = await embed({
        model: model(KEY),
        value: query,
        dimensions: 256,
        maxRetries: 0,
      });
      expect(again.embedding).toEqual(short.embedding);
    },
  );

  const post = (url: string, body: unknown, apiKey = KEY) =>
    fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('sends OpenAI base64 vectors as little-endian float32 of the same values', async () => {
    const url = `${sim.baseUrls.openai}/embeddings`;
    const body = { model: 'text-embedding-3-small', input: ['hello world'], dimensions: 64 };
    const float = (await post(url, body).then((r) => r.json())) as {
      data: { embedding: number[] }[];
      usage: { prompt_tokens: number; total_tokens: number };
    };
    const base64 = (await post(url, { ...body, encoding_format: 'base64' }).then((r) =>
      r.json(),
    )) as { data: { embedding: string }[] };
    const bytes = Buffer.from(base64.data[0]!.embedding, 'base64');
    const decoded = Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
    expect(decoded).toEqual(float.data[0]!.embedding);
    expect(float.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
  });

  it('answers each provider’s 400 past its batch limit', async () => {
    const texts = (n: number) => Array.from({ length: n }, (_, i) => `text ${i}`);
    const openai = await post(`${sim.baseUrls.openai}/embeddings`, {
      model: 'text-embedding-3-small',
      input: texts(2049),
      dimensions: 8,
    });
    expect(openai.status).toBe(400);
    expect(await openai.json()).toMatchObject({
      error: {
        message: expect.stringContaining("'$.input' is invalid"),
        type: 'invalid_request_error',
      },
    });
    const atLimit = await post(`${sim.baseUrls.openai}/embeddings`, {
      model: 'text-embedding-3-small',
      input: texts(2048),
      dimensions: 8,
    });
    expect(atLimit.status).toBe(200);

    const gemini = await post(
      `${sim.baseUrls.gemini}/models/text-embedding-004:batchEmbedContents?key=${KEY}`,
      { requests: texts(101).map((text) => ({ content: { parts: [{ text }] } })) },
    );
    expect(gemini.status).toBe(400);
    expect(await gemini.json()).toMatchObject({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: expect.stringContaining('at most 100 requests'),
      },
    });

    const mistral = await post(`${sim.baseUrls.mistral}/embeddings`, {
      model: 'mistral-embed',
      input: texts(513),
    });
    expect(mistral.status).toBe(400);
    expect(await mistral.json()).toMatchObject({ object: 'error', code: '3210' });
  });

  it('rejects dimensions a model cannot give, and an empty OpenAI input, with a 400', async () => {
    const url = `${sim.baseUrls.openai}/embeddings`;
    const tooMany = await post(url, {
      model: 'text-embedding-3-small',
      input: 'hi',
      dimensions: 2000,
    });
    expect(tooMany.status).toBe(400);
    const ada = await post(url, { model: 'text-embedding-ada-002', input: 'hi', dimensions: 256 });
    expect(ada.status).toBe(400);
    expect(await ada.json()).toMatchObject({
      error: { message: 'This model does not support specifying dimensions.' },
    });
    expect((await post(url, { model: 'text-embedding-3-small', input: '' })).status).toBe(400);
    expect(
      (await post(url, { model: 'text-embedding-3-small', input: 'hi', dimensions: 0 })).status,
    ).toBe(400);
  });

  it('embeds on Ollama’s native /api/embed the same as on /v1/embeddings', async () => {
    const native = (await fetch(`${sim.baseUrls.ollama}/api/embed`, {
      method: 'POST',
      body: JSON.stringify({ model: 'nomic-embed-text', input: documents }),
    }).then((r) => r.json())) as {
      model: string;
      embeddings: number[][];
      prompt_eval_count: number;
    };
    expect(native.model).toBe('nomic-embed-text');
    expect(native.embeddings.map((e) => e.length)).toEqual([768, 768, 768]);
    expect(native.prompt_eval_count).toBe(documents.join(' ').split(' ').length);

    const model = embeddingCases.find((c) => c.name.startsWith('ollama'))!.model('');
    const viaV1 = await embedMany({ model, values: documents, maxRetries: 0 });
    expect(viaV1.embeddings).toEqual(native.embeddings);

    const error = await fetch(`${sim.baseUrls.ollama}/api/embed`, {
      method: 'POST',
      body: JSON.stringify({ input: 'no model' }),
    });
    expect(error.status).toBe(400);
    expect(await error.json()).toEqual({ error: 'model is required' });
  });

  it('ends the wait of a `slow` key as soon as the client gives up', async () => {
    const model = embeddingCases[0]!.model('sk-slow');
    const error = await embed({
      model,
      value: 'hi',
      abortSignal: AbortSignal.timeout(200),
      maxRetries: 0,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeDefined();
    await vi.waitFor(() => expect(latestRequest()?.outcome).toBe('client-disconnected'));
  });
});
