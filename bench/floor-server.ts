/**
 * The least a streaming proxy built on our stack can add: Hono on @hono/node-server, the provider
 * model's own stream read as Chorus reads a plain turn (`apps/server/src/ai/plain-stream.ts`, ADR
 * 017) and written as a UI message stream (`uiMessageResponse`). No session, no database, no
 * keys, no limits. `bench/stream.ts` runs it as its own process beside the Chorus server, so the
 * figures separate what our libraries and stream code cost from what Chorus's own work costs.
 *
 *   OPENAI_BASE_URL=http://127.0.0.1:8787/openai/v1 PORT=8091 npx tsx bench/floor-server.ts
 */
import { createOpenAI } from '@ai-sdk/openai';
import { serve } from '@hono/node-server';
import type { ModelMessage } from 'ai';
import { Hono } from 'hono';
import {
  asV4,
  openPlainStream,
  plainPrompt,
  plainUiChunks,
} from '../apps/server/src/ai/plain-stream.ts';
import { uiMessageResponse } from '../apps/server/src/http/ui-message-response.ts';

const baseURL = process.env.OPENAI_BASE_URL;
if (!baseURL) throw new Error('Set OPENAI_BASE_URL to the provider simulator.');

const app = new Hono();
app.get('/healthz', (c) => c.json({ status: 'ok' }));
app.post('/chat', async (c) => {
  const { messages } = await c.req.json<{ messages: ModelMessage[] }>();
  const model = asV4(createOpenAI({ apiKey: 'sk-bench-0000000000000000', baseURL })('gpt-4o-mini'));
  const prompt = plainPrompt({ messages });
  if (!model || !prompt) return c.json({ message: 'not a plain turn' }, 400);
  const signal = c.req.raw.signal;
  const opened = openPlainStream(model, prompt, { maxRetries: 0, signal });
  opened.catch(() => undefined);
  const parts = plainUiChunks(opened, {
    sendSources: false,
    signal,
    onTextDelta: () => undefined,
    describeFailure: (error) => String(error),
    settle: async () => undefined,
  });
  return uiMessageResponse(parts, { onError: (error) => String(error) });
});

serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
