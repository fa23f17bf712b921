/**
 * The least a streaming proxy built on our stack can add: Hono on @hono/node-server, one AI SDK
 * `streamText` to the provider, re-encoded as a UI message stream. No session, no database, no
 * keys, no limits. `bench/stream.ts` runs it as its own process beside the Chorus server, so the
 * figures separate what our libraries cost from what Chorus's own work costs.
 *
 *   OPENAI_BASE_URL=http://127.0.0.1:8787/openai/v1 PORT=8091 npx tsx bench/floor-server.ts
 */
import { createOpenAI } from '@ai-sdk/openai';
import { serve } from '@hono/node-server';
import { createUIMessageStreamResponse, streamText, type ModelMessage } from 'ai';
import { Hono } from 'hono';

const baseURL = process.env.OPENAI_BASE_URL;
if (!baseURL) throw new Error('Set OPENAI_BASE_URL to the provider simulator.');

const app = new Hono();
app.get('/healthz', (c) => c.json({ status: 'ok' }));
app.post('/chat', async (c) => {
  const { messages } = await c.req.json<{ messages: ModelMessage[] }>();
  const result = streamText({
    model: createOpenAI({ apiKey: 'sk-bench-0000000000000000', baseURL })('gpt-4o-mini'),
    messages,
    abortSignal: c.req.raw.signal,
  });
  // Writing to the Node response directly (pipeUIMessageStreamToResponse) measured the same.
  return createUIMessageStreamResponse({ stream: result.toUIMessageStream() });
});

serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
