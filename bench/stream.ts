/**
 * Time to first token and streamed bytes: the built server (`node apps/server/dist/main.js`)
 * against a direct call to the same provider, measured side by side in one run.
 *
 *   npm run build && npx tsx bench/stream.ts [--rounds 200]
 *
 * Both paths talk to `tools/provider-sim` (OpenAI Responses API, no chunk delay), so the
 * difference is what Chorus adds: session check, rate limit, key resolution, committing the
 * user message, the provider call through the AI SDK and re-encoding as a UI message stream.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startProviderSim } from '@chorus/provider-sim';
import { percentile, signUp, startServer } from './lib.ts';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 200;

const sim = await startProviderSim({ port: 0, chunkDelayMs: 0 });
const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-'));
const server = await startServer({
  DATA_DIR: dataDir,
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  ...Object.fromEntries(
    Object.entries(sim.baseUrls).map(([id, url]) => [`${id.toUpperCase()}_BASE_URL`, url]),
  ),
});
const baseUrl = server.baseUrl;

const firstChunkAfter = async (
  url: string,
  init: RequestInit,
  isToken: (text: string) => boolean,
) => {
  const started = performance.now();
  const res = await fetch(url, init);
  if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  const decoder = new TextDecoder();
  let ttft = Number.NaN;
  let bytes = 0;
  let seen = '';
  const reader = res.body.getReader();
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    bytes += chunk.byteLength;
    if (Number.isNaN(ttft)) {
      seen += decoder.decode(chunk, { stream: true });
      if (isToken(seen)) ttft = performance.now() - started;
    }
  }
  return { ttft, bytes };
};

try {
  const user = await signUp(baseUrl, 'bench@example.com');
  await user.json('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-bench-0000000000000000' });
  const conversation = (await user.json('POST', '/rest/v1/conversations', {
    title: 'Bench',
  })) as { id: string };

  const chatBody = (text?: string) =>
    JSON.stringify({
      conversation_id: conversation.id,
      provider: 'openai',
      model: 'gpt-4o-mini',
      ...(text ? { text } : { regenerate: true }),
    });
  const viaChorus = (text?: string) =>
    firstChunkAfter(
      `${baseUrl}/functions/v1/chat`,
      {
        method: 'POST',
        headers: { ...user.headers(), 'content-type': 'application/json' },
        body: chatBody(text),
      },
      (s) => s.includes('"text-delta"'),
    );
  const direct = (text: string) =>
    firstChunkAfter(
      `${sim.baseUrls.openai}/responses`,
      {
        method: 'POST',
        headers: {
          authorization: 'Bearer sk-bench-0000000000000000',
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          model: 'gpt-4o-mini',
          stream: true,
          input: [{ role: 'user', content: text }],
        }),
      },
      (s) => s.includes('response.output_text.delta'),
    );

  // The conversation's first message; every measured round then regenerates the reply, so the
  // history the server loads and sends stays the same size.
  await viaChorus('Hello [sim:tokens 20]');
  for (let i = 0; i < 20; i += 1) {
    await direct('warm up [sim:tokens 20]');
    await viaChorus();
  }

  const directTtft: number[] = [];
  const chorusTtft: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    // Alternate which goes first so drift in the machine's load hits both alike.
    if (i % 2 === 0) {
      directTtft.push((await direct('Hello [sim:tokens 20]')).ttft);
      chorusTtft.push((await viaChorus()).ttft);
    } else {
      chorusTtft.push((await viaChorus()).ttft);
      directTtft.push((await direct('Hello [sim:tokens 20]')).ttft);
    }
  }

  const bytesFor = async (tokens: number) =>
    (await viaChorus(`Reply [sim:tokens ${tokens}]`)).bytes;
  const sizes = [100, 200, 400, 800, 1600];
  const streamed: { tokens: number; bytes: number }[] = [];
  for (const tokens of sizes) streamed.push({ tokens, bytes: await bytesFor(tokens) });

  const p50d = percentile(directTtft, 50);
  const p50c = percentile(chorusTtft, 50);
  console.log(
    JSON.stringify(
      {
        rounds,
        database: process.env.BENCH_DATABASE_URL ? 'postgresql' : 'pglite',
        ttft_ms: {
          direct: { p50: p50d, p95: percentile(directTtft, 95) },
          chorus: { p50: p50c, p95: percentile(chorusTtft, 95) },
          added_p50: +(p50c - p50d).toFixed(2),
        },
        streamed_bytes: streamed.map((s) => ({
          ...s,
          bytes_per_token: +(s.bytes / s.tokens).toFixed(1),
        })),
      },
      null,
      2,
    ),
  );
} finally {
  await server.stop();
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
}
