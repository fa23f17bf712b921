import type { UIMessageChunk } from 'ai';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerIds, type ProviderId } from '@chorus/shared/providers';
import { usageEvents } from '../db/schema/index.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { prepareModelCall, type StreamEnd, type StreamEvents } from './model-call.ts';
import type { ProviderFailure } from './provider-errors.ts';

// The pass-through for plain turns (ADR 017) against the AI SDK's own path, both reading the
// same provider simulator: what a browser receives and what the seam reports must not differ.

let t: TestApp;
let n = 0;

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
});
afterAll(() => t.close());

const personWithKey = async (provider: ProviderId) => {
  n += 1;
  const u = await t.user(`plain-${provider}-${n}@example.com`);
  const res = await u.request('PUT', `/rest/v1/api-keys/${provider}`, {
    // Perplexity's keys start with its own prefix.
    api_key: `${provider === 'perplexity' ? 'pplx' : 'sk'}-plain-${provider}-0000000001`,
  });
  expect(res.status).toBe(200);
  return u;
};

type Heard = {
  chunks: UIMessageChunk[];
  finish?: StreamEnd;
  failure?: ProviderFailure;
  aborted?: boolean;
  deltas: string;
};

/** Reads one call to the end as UI chunks, through the pass-through or through `streamText`. */
const run = async (
  provider: ProviderId,
  userId: string,
  text: string,
  way: 'plain' | 'sdk',
  opts: { maxRetries?: number; stopAfterDeltas?: number } = {},
): Promise<Heard> => {
  const call = await prepareModelCall(t.deps, {
    userId,
    source: 'chat',
    provider,
    rateLimit: 'none',
  });
  const heard: Heard = { chunks: [], deltas: '' };
  const stop = new AbortController();
  const events: StreamEvents = {
    onTextDelta: (d) => (heard.deltas += d),
    onFinish: (end) => void (heard.finish = end),
    onError: (failure) => void (heard.failure = { code: failure.code, message: failure.message }),
    onAbort: () => void (heard.aborted = true),
  };
  const settings = {
    messages: [{ role: 'user' as const, content: text }],
    system: 'Be brief.',
    maxRetries: opts.maxRetries ?? 0,
    signal: stop.signal,
  };
  const ui = { metadata: { note: 'first' }, sendSources: true };
  let parts: AsyncIterable<UIMessageChunk>;
  let reportFailure: (error: unknown) => string;
  if (way === 'plain') {
    const streamed = call.streamUi(settings, events, ui);
    parts = streamed.parts;
    reportFailure = streamed.reportFailure;
  } else {
    const streamed = call.stream(settings, events);
    reportFailure = streamed.reportFailure;
    parts = streamed.result.toUIMessageStream({
      sendSources: true,
      messageMetadata: ({ part }) => (part.type === 'start' ? ui.metadata : undefined),
      onError: (error) => streamed.reportFailure(error),
    });
  }
  try {
    for await (const chunk of parts) {
      heard.chunks.push(chunk);
      const deltas = heard.chunks.filter((c) => c.type === 'text-delta').length;
      if (opts.stopAfterDeltas && deltas === opts.stopAfterDeltas) stop.abort();
    }
  } catch (error) {
    // The AI SDK's stream fails when the provider cuts the reply; a route answers this text.
    heard.chunks.push({ type: 'error', errorText: reportFailure(error) });
  }
  // The events settle just after the last chunk.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return heard;
};

/** Ids the provider or the SDK made afresh for each call, replaced by their order of appearance. */
const normalized = (chunks: UIMessageChunk[]) => {
  const ids = new Map<string, string>();
  const id = (value: string) => {
    if (!ids.has(value)) ids.set(value, `id${ids.size}`);
    return ids.get(value)!;
  };
  return chunks.map((chunk) =>
    JSON.parse(
      JSON.stringify(chunk, (key, value: unknown) =>
        typeof value === 'string' &&
        (key === 'id' || key === 'sourceId' || key === 'itemId' || /sim\d{6}/.test(value))
          ? id(value)
          : value,
      ),
    ),
  );
};

describe('a plain chat turn read straight from the provider model', () => {
  it.each(providerIds)(
    'sends what the AI SDK sends and reports the same end, for %s',
    async (provider) => {
      const u = await personWithKey(provider);
      const text = 'Hello [sim:tokens 6]';
      const viaSdk = await run(provider, u.id, text, 'sdk');
      const plain = await run(provider, u.id, text, 'plain');

      expect(plain.chunks.some((c) => c.type === 'text-delta')).toBe(true);
      expect(normalized(plain.chunks)).toEqual(normalized(viaSdk.chunks));
      expect(plain.deltas).toBe(viaSdk.deltas);
      expect(plain.finish?.text).toBe(viaSdk.finish?.text);
      expect(plain.finish?.sources).toEqual(viaSdk.finish?.sources);
      expect(plain.finish?.usage.inputTokens).toBe(viaSdk.finish?.usage.inputTokens);
      expect(plain.finish?.usage.outputTokens).toBe(viaSdk.finish?.usage.outputTokens);
      expect(plain.finish?.usage.outputTokens).toBeGreaterThan(0);

      const rows = await t.db.select().from(usageEvents).where(eq(usageEvents.user_id, u.id));
      expect(rows.map((r) => [r.status, r.output_tokens])).toEqual([
        ['ok', viaSdk.finish?.usage.outputTokens],
        ['ok', viaSdk.finish?.usage.outputTokens],
      ]);
    },
  );

  it('reports a refused call as the AI SDK does, with the same message and one usage row', async () => {
    const u = await personWithKey('openai');
    const viaSdk = await run('openai', u.id, 'Hi [sim:500]', 'sdk');
    const plain = await run('openai', u.id, 'Hi [sim:500]', 'plain');
    expect(normalized(plain.chunks)).toEqual(normalized(viaSdk.chunks));
    expect(plain.chunks.at(-1)).toEqual({ type: 'error', errorText: plain.failure?.message });
    expect(plain.failure).toEqual(viaSdk.failure);
    expect(plain.failure?.code).toBe('provider:unavailable');
    const rows = await t.db.select().from(usageEvents).where(eq(usageEvents.user_id, u.id));
    expect(rows.map((r) => r.status)).toEqual(['error', 'error']);
  });

  it('tries a rate-limited call again before its first token', async () => {
    const u = await personWithKey('openai');
    const plain = await run('openai', u.id, 'Hi [sim:429-times 1] [sim:tokens 3]', 'plain', {
      maxRetries: 1,
    });
    expect(plain.failure).toBeUndefined();
    expect(plain.finish?.text).toBe(plain.deltas);
    expect(plain.deltas.length).toBeGreaterThan(0);
  });

  it('tells a reply cut off mid-stream as the AI SDK path tells it', async () => {
    const u = await personWithKey('openai');
    const viaSdk = await run('openai', u.id, 'Hi [sim:fail-after 2]', 'sdk');
    const plain = await run('openai', u.id, 'Hi [sim:fail-after 2]', 'plain');
    expect(plain.deltas).toBe(viaSdk.deltas);
    expect(plain.chunks.at(-1)).toEqual(viaSdk.chunks.at(-1));
    expect(plain.chunks.at(-1)?.type).toBe('error');
    expect(plain.failure).toEqual(viaSdk.failure);
    expect(plain.finish).toBeUndefined();
  });

  it('ends a stopped reply with an abort, and reports the stop', async () => {
    const u = await personWithKey('openai');
    const plain = await run('openai', u.id, 'Hi [sim:tokens 400]', 'plain', {
      stopAfterDeltas: 2,
    });
    expect(plain.chunks.at(-1)).toEqual({ type: 'abort' });
    expect(plain.aborted).toBe(true);
    expect(plain.finish).toBeUndefined();
    const rows = await t.db.select().from(usageEvents).where(eq(usageEvents.user_id, u.id));
    expect(rows.map((r) => r.status)).toEqual(['ok']);
  });

  it('leaves a turn with attachments or tools to the AI SDK', async () => {
    const { plainPrompt } = await import('./plain-stream.ts');
    expect(plainPrompt({ messages: [{ role: 'user', content: 'hi' }] })).not.toBeNull();
    expect(
      plainPrompt({
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      }),
    ).toBeNull();
    expect(plainPrompt({ messages: [{ role: 'user', content: 'hi' }], tools: {} })).toBeNull();
    expect(plainPrompt({ messages: [{ role: 'user', content: 'hi' }], timeoutMs: 5 })).toBeNull();
  });
});
