import { z } from '@hono/zod-openapi';

const tagsSchema = z.object({ models: z.array(z.object({ name: z.string() })) });

export type OllamaTags = { ok: true; models: string[] } | { ok: false; reason: string };

/** Host and port of a base URL, as people recognise their server. */
export const hostOf = (baseUrl: string) => new URL(baseUrl).host;

/**
 * The models an Ollama server has installed (`GET /api/tags`), or why it could not say. Ollama
 * needs no key; its base URL is the operator's `OLLAMA_BASE_URL`, not a user's.
 */
export const readOllamaTags = async (baseUrl: string, timeoutMs: number): Promise<OllamaTags> => {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    return {
      ok: false,
      reason: timedOut ? `no answer within ${Math.round(timeoutMs / 1000)} s` : 'nothing answers',
    };
  }
  if (!res.ok) return { ok: false, reason: `HTTP ${res.status}` };
  const parsed = tagsSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) return { ok: false, reason: 'it answered, but not as Ollama does' };
  return { ok: true, models: parsed.data.models.map((m) => m.name) };
};
