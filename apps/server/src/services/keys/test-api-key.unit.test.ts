import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderSim } from '@chorus/provider-sim';
import { keyMessages } from '@chorus/shared/messages';
import { providerIds, providers, type ProviderId } from '@chorus/shared/providers';
import { testApiKey } from './test-api-key.ts';

let sim: Awaited<ReturnType<typeof startProviderSim>>;
let baseUrls: Record<ProviderId, string>;

beforeAll(async () => {
  sim = await startProviderSim({ port: 0 });
  baseUrls = sim.baseUrls as Record<ProviderId, string>;
});
afterAll(() => sim.close());

const run = (provider: ProviderId, apiKey: string, timeoutMs?: number) =>
  testApiKey({ provider, apiKey, baseUrls, timeoutMs });

const validKey: Record<ProviderId, string> = {
  openai: 'sk-test-valid',
  deepseek: 'sk-test-valid',
  perplexity: 'pplx-test-valid',
  anthropic: 'sk-ant-test-valid',
  gemini: 'AIza-test-valid',
  mistral: 'mistral-test-valid',
  ollama: '',
  openrouter: 'sk-or-test-valid',
};

describe('testApiKey against the providers (simulated)', () => {
  it.each(providerIds.filter((id) => id !== 'ollama'))(
    'accepts a working %s key with the spec message',
    async (id) => {
      expect(await run(id, validKey[id])).toEqual({
        valid: true,
        message: keyMessages.valid(providers[id].name),
      });
    },
  );

  it('says Ollama needs no key and reports its server and installed models', async () => {
    const host = new URL(baseUrls.ollama).host;
    const result = await run('ollama', validKey.ollama);
    expect(result.valid).toBe(true);
    expect(result.message).toMatch(/^Ollama needs no API key\. Its server at /);
    expect(result.message).toContain(host);
    expect(result.message).not.toContain('API key is valid');
  });

  it.each(providerIds.filter((id) => id !== 'anthropic' && id !== 'ollama'))(
    'says "Invalid API key" for a %s key the provider rejects',
    async (id) => {
      expect(await run(id, 'sk-invalid-pplx-invalid')).toEqual({
        valid: false,
        message: keyMessages.invalidKey,
      });
    },
  );

  it.each(providerIds.filter((id) => id !== 'anthropic'))(
    'says "Rate limit exceeded" on a %s 429',
    async (id) => {
      expect(await run(id, 'sk-ratelimit')).toEqual({
        valid: false,
        message: keyMessages.rateLimited,
      });
    },
  );

  it('reports other provider failures as "appears invalid" with the reason', async () => {
    const result = await run('openai', 'sk-error500');
    expect(result.valid).toBe(false);
    expect(result.message.startsWith(`${providers.openai.name} API key appears invalid: `)).toBe(
      true,
    );
  });

  it('refuses an empty key without calling anyone, except for Ollama which needs none', async () => {
    const before = sim.requests.length;
    expect(await run('openai', '   ')).toEqual({ valid: false, message: keyMessages.emptyTestKey });
    expect(await run('anthropic', '')).toEqual({
      valid: false,
      message: keyMessages.anthropic.missing,
    });
    expect(sim.requests.length).toBe(before);
    expect((await run('ollama', '')).valid).toBe(true);
  });

  it('says "Unexpected response format" for a body of the wrong shape', async () => {
    for (const id of ['openai', 'mistral', 'perplexity', 'gemini'] as const) {
      expect(await run(id, 'sk-badformat-pplx-badformat'), id).toEqual({
        valid: false,
        message: keyMessages.unexpectedFormat,
      });
    }
  });

  it('says "No models available" when the model list is empty', async () => {
    expect(await run('openai', 'sk-empty-models')).toEqual({
      valid: false,
      message: keyMessages.noModels,
    });
  });

  it('counts a 400 about alternating messages as a valid DeepSeek or Perplexity key', async () => {
    expect(await run('deepseek', 'sk-alternating')).toEqual({
      valid: true,
      message: keyMessages.valid('DeepSeek'),
    });
    expect(await run('perplexity', 'pplx-alternating')).toEqual({
      valid: true,
      message: keyMessages.valid('Perplexity'),
    });
  });

  it('uses Anthropic own messages', async () => {
    const m = keyMessages.anthropic;
    expect(await run('anthropic', 'sk-ant-invalid')).toEqual({ valid: false, message: m.invalid });
    expect(await run('anthropic', 'sk-ant-ratelimit')).toEqual({
      valid: false,
      message: m.rateLimited,
    });
  });

  it('gives up with the time-out message when the provider is too slow', async () => {
    // The slow key answers after 20 s; the time-out message shows the 300 ms limit cut it off.
    expect(await run('openai', 'sk-slow', 300)).toEqual({
      valid: false,
      message: keyMessages.timedOut,
    });
  });

  it('says the provider could not be reached when nothing listens', async () => {
    const result = await testApiKey({
      provider: 'mistral',
      apiKey: 'k',
      baseUrls: { ...baseUrls, mistral: 'http://127.0.0.1:9/v1' },
    });
    expect(result).toEqual({
      valid: false,
      message: 'Mistral API key appears invalid: could not reach 127.0.0.1:9',
    });
  });

  it('never lets the key reach the simulator log unmasked', () => {
    expect(JSON.stringify(sim.requests)).not.toContain('sk-test-valid');
  });
});
