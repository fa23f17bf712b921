import type { TestApiKeyResult } from '@chorus/shared/api/keys';
import { keyMessages } from '@chorus/shared/messages';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { hostOf, readOllamaTags } from './ollama-tags.ts';

/** Spec §9: key tests give up after 15 s. */
export const KEY_TEST_TIMEOUT_MS = 15_000;

type Probe = { url: string; init: RequestInit };
type Judge = (res: Response, body: unknown) => TestApiKeyResult;

const bearer = (key: string): Record<string, string> =>
  key ? { authorization: `Bearer ${key}` } : {};
const json = { 'content-type': 'application/json' };
const tinyChat = (model: string) =>
  JSON.stringify({ model, max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] });

const ok = (name: string): TestApiKeyResult => ({ valid: true, message: keyMessages.valid(name) });
const bad = (message: string): TestApiKeyResult => ({ valid: false, message });

/** The provider's own error text, when its body carries one. */
const errorText = (body: unknown): string | undefined => {
  if (!body || typeof body !== 'object') return undefined;
  const e = (body as { error?: unknown; message?: unknown }).error ?? body;
  if (typeof e === 'string') return e;
  const m = (e as { message?: unknown }).message;
  return typeof m === 'string' ? m : undefined;
};

/** The common reading of a status before any provider-specific rule. */
const byStatus = (name: string, res: Response, body: unknown): TestApiKeyResult | null => {
  if (res.status === 401 || res.status === 403) return bad(keyMessages.invalidKey);
  if (res.status === 429) return bad(keyMessages.rateLimited);
  if (!res.ok) {
    return bad(keyMessages.appearsInvalid(name, errorText(body) ?? `HTTP ${res.status}`));
  }
  return null;
};

const modelList =
  (name: string): Judge =>
  (res, body) => {
    const early = byStatus(name, res, body);
    if (early) return early;
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) return bad(keyMessages.unexpectedFormat);
    return data.length === 0 ? bad(keyMessages.noModels) : ok(name);
  };

/** DeepSeek and Perplexity: a 400 about alternating roles proves the key was accepted (spec §8). */
const tinyChatJudge =
  (name: string): Judge =>
  (res, body) => {
    if (res.status === 400 && /alternat|interleave/i.test(errorText(body) ?? '')) return ok(name);
    const early = byStatus(name, res, body);
    if (early) return early;
    const choices = (body as { choices?: unknown } | null)?.choices;
    return Array.isArray(choices) ? ok(name) : bad(keyMessages.unexpectedFormat);
  };

const geminiJudge: Judge = (res, body) => {
  // Gemini answers a bad key with 400 API_KEY_INVALID.
  if (res.status === 400 && /api[_ ]key/i.test(JSON.stringify(body ?? '')))
    return bad(keyMessages.invalidKey);
  const early = byStatus('Gemini', res, body);
  if (early) return early;
  const candidates = (body as { candidates?: unknown } | null)?.candidates;
  return Array.isArray(candidates) ? ok('Gemini') : bad(keyMessages.unexpectedFormat);
};

const anthropicJudge: Judge = (res, body) => {
  const m = keyMessages.anthropic;
  if (res.status === 401 || res.status === 403) return bad(m.invalid);
  if (res.status === 429) return bad(m.rateLimited);
  if (res.status === 400) return bad(m.badRequest);
  if (!res.ok)
    return bad(keyMessages.appearsInvalid('Anthropic', errorText(body) ?? `HTTP ${res.status}`));
  const content = (body as { content?: unknown } | null)?.content;
  if (!Array.isArray(content) || content.length === 0) return bad(m.empty);
  return ok('Anthropic');
};

const openRouterJudge: Judge = (res, body) => {
  const early = byStatus('OpenRouter', res, body);
  if (early) return early;
  return (body as { data?: unknown } | null)?.data &&
    typeof (body as { data: unknown }).data === 'object'
    ? ok('OpenRouter')
    : bad(keyMessages.unexpectedFormat);
};

/** How each provider is asked (spec §7), against the configured base URLs. */
const probes = (
  base: Record<ProviderId, string>,
  key: string,
): Record<ProviderId, { probe: Probe; judge: Judge }> => ({
  openai: {
    probe: { url: `${base.openai}/models`, init: { headers: bearer(key) } },
    judge: modelList('OpenAI'),
  },
  mistral: {
    probe: { url: `${base.mistral}/models`, init: { headers: bearer(key) } },
    judge: modelList('Mistral'),
  },
  ollama: {
    probe: { url: `${base.ollama}/v1/models`, init: { headers: bearer(key) } },
    judge: modelList('Ollama'),
  },
  // OpenRouter lists models without a key; its key endpoint is what proves a key.
  openrouter: {
    probe: { url: `${base.openrouter}/key`, init: { headers: bearer(key) } },
    judge: openRouterJudge,
  },
  deepseek: {
    probe: {
      url: `${base.deepseek}/chat/completions`,
      init: {
        method: 'POST',
        headers: { ...json, ...bearer(key) },
        body: tinyChat('deepseek-chat'),
      },
    },
    judge: tinyChatJudge('DeepSeek'),
  },
  perplexity: {
    probe: {
      url: `${base.perplexity}/chat/completions`,
      init: { method: 'POST', headers: { ...json, ...bearer(key) }, body: tinyChat('sonar') },
    },
    judge: tinyChatJudge('Perplexity'),
  },
  gemini: {
    probe: {
      url: `${base.gemini}/models/${providers.gemini.defaultModel}:generateContent`,
      init: {
        method: 'POST',
        headers: { ...json, 'x-goog-api-key': key },
        body: JSON.stringify({
          contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
          generationConfig: { maxOutputTokens: 5 },
        }),
      },
    },
    judge: geminiJudge,
  },
  anthropic: {
    probe: {
      url: `${base.anthropic}/messages`,
      init: {
        method: 'POST',
        headers: { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: tinyChat(providers.anthropic.defaultModel),
      },
    },
    judge: anthropicJudge,
  },
});

/**
 * Ollama without a key: there is no key to judge, so the test says none is needed and whether
 * its server answers (and has a model to chat with).
 */
const testOllamaServer = async (baseUrl: string, timeoutMs: number): Promise<TestApiKeyResult> => {
  const host = hostOf(baseUrl);
  const tags = await readOllamaTags(baseUrl, timeoutMs);
  if (!tags.ok) return bad(keyMessages.ollamaUnreachable(host, tags.reason));
  if (tags.models.length === 0) return bad(keyMessages.ollamaNoModels(host));
  return { valid: true, message: keyMessages.ollamaReachable(host, tags.models.length) };
};

/** Tests a key against the provider itself. Never throws; every outcome is a message. */
export const testApiKey = async (opts: {
  provider: ProviderId;
  apiKey: string;
  baseUrls: Record<ProviderId, string>;
  timeoutMs?: number;
}): Promise<TestApiKeyResult> => {
  const key = opts.apiKey.trim();
  const name = providers[opts.provider].name;
  if (key === '' && opts.provider === 'ollama') {
    return testOllamaServer(opts.baseUrls.ollama, opts.timeoutMs ?? KEY_TEST_TIMEOUT_MS);
  }
  if (key === '' && !providers[opts.provider].keyOptional) {
    return bad(
      opts.provider === 'anthropic' ? keyMessages.anthropic.missing : keyMessages.emptyTestKey,
    );
  }
  const { probe, judge } = probes(opts.baseUrls, key)[opts.provider];
  let res: Response;
  try {
    res = await fetch(probe.url, {
      ...probe.init,
      signal: AbortSignal.timeout(opts.timeoutMs ?? KEY_TEST_TIMEOUT_MS),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError')
      return bad(keyMessages.timedOut);
    return bad(keyMessages.appearsInvalid(name, `could not reach ${new URL(probe.url).host}`));
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    if (res.ok)
      return bad(
        opts.provider === 'anthropic' ? keyMessages.anthropic.empty : keyMessages.unexpectedFormat,
      );
  }
  return judge(res, body);
};
