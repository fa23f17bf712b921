import { createAnthropic } from '@ai-sdk/anthropic';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createPerplexity } from '@ai-sdk/perplexity';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import type { LanguageModel } from 'ai';
import { resolveModel, type ProviderId } from '@chorus/shared/providers';

export type ModelRequest = {
  provider: ProviderId;
  /** Any model; one not in the catalogue falls back to the default (except openrouter). */
  model?: string | null;
  /** Ollama accepts none. */
  apiKey: string | undefined;
  baseUrls: Record<ProviderId, string>;
};

/** The one seam between Chorus and the providers' SDKs (STYLE habit 4). */
export const getLanguageModel = ({
  provider,
  model,
  apiKey,
  baseUrls,
}: ModelRequest): LanguageModel => {
  const id = resolveModel(provider, model);
  const baseURL = baseUrls[provider];
  switch (provider) {
    case 'openai':
      return createOpenAI({ apiKey, baseURL })(id);
    case 'anthropic':
      return createAnthropic({ apiKey, baseURL })(id);
    case 'gemini':
      return createGoogleGenerativeAI({ apiKey, baseURL })(id);
    case 'deepseek':
      return createDeepSeek({ apiKey, baseURL })(id);
    case 'mistral':
      return createMistral({ apiKey, baseURL })(id);
    case 'perplexity':
      return createPerplexity({ apiKey, baseURL })(id);
    case 'openrouter':
      return createOpenRouter({ apiKey, baseURL })(id);
    case 'ollama':
      // Ollama reports usage on streams only when asked, as OpenAI does.
      return createOpenAICompatible({
        name: 'ollama',
        apiKey,
        baseURL: `${baseURL}/v1`,
        includeUsage: true,
      })(id);
  }
};

/** Ollama's native API root, for its NDJSON chat and model tags. */
export const ollamaApiUrl = (baseUrls: Record<ProviderId, string>) => `${baseUrls.ollama}/api`;
