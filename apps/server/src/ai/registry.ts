import { createAnthropic } from '@ai-sdk/anthropic';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createPerplexity } from '@ai-sdk/perplexity';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import type { EmbeddingModel, LanguageModel } from 'ai';
import { resolveModel, type ProviderId } from '@chorus/shared/providers';

export type ModelRequest = {
  provider: ProviderId;
  /** Any model; one not in the catalogue falls back to the default (except openrouter). */
  model?: string | null;
  /** Ollama accepts none. */
  apiKey: string | undefined;
  baseUrls: Record<ProviderId, string>;
  /** The HTTP client the provider calls through (the seam's, to see when a request leaves). */
  fetch?: typeof globalThis.fetch | undefined;
};

/** The one seam between Chorus and the providers' SDKs (STYLE habit 4). */
export const getLanguageModel = ({
  provider,
  model,
  apiKey,
  baseUrls,
  fetch,
}: ModelRequest): LanguageModel => {
  const id = resolveModel(provider, model);
  const baseURL = baseUrls[provider];
  switch (provider) {
    case 'openai':
      return createOpenAI({ apiKey, baseURL, fetch })(id);
    case 'anthropic':
      return createAnthropic({ apiKey, baseURL, fetch })(id);
    case 'gemini':
      return createGoogleGenerativeAI({ apiKey, baseURL, fetch })(id);
    case 'deepseek':
      return createDeepSeek({ apiKey, baseURL, fetch })(id);
    case 'mistral':
      return createMistral({ apiKey, baseURL, fetch })(id);
    case 'perplexity':
      return createPerplexity({ apiKey, baseURL, fetch })(id);
    case 'openrouter':
      return createOpenRouter({ apiKey, baseURL, fetch })(id);
    case 'ollama':
      // Ollama reports usage on streams only when asked, as OpenAI does.
      return createOpenAICompatible({
        name: 'ollama',
        apiKey,
        baseURL: `${baseURL}/v1`,
        includeUsage: true,
        fetch,
      })(id);
  }
};

/**
 * The embedding model of a provider that has one (OpenAI, Gemini, Mistral, Ollama); null for the
 * others. The model id is the caller's: knowledge bases store which one they were built with.
 */
export const getEmbeddingModel = ({
  provider,
  model,
  apiKey,
  baseUrls,
  fetch,
}: Omit<ModelRequest, 'model'> & { model: string }): EmbeddingModel | null => {
  const baseURL = baseUrls[provider];
  switch (provider) {
    case 'openai':
      return createOpenAI({ apiKey, baseURL, fetch }).embedding(model);
    case 'gemini':
      return createGoogleGenerativeAI({ apiKey, baseURL, fetch }).embedding(model);
    case 'mistral':
      return createMistral({ apiKey, baseURL, fetch }).embedding(model);
    case 'ollama':
      return createOpenAICompatible({
        name: 'ollama',
        apiKey,
        baseURL: `${baseURL}/v1`,
        fetch,
      }).embeddingModel(model);
    default:
      return null;
  }
};

/** Ollama's native API root, for its NDJSON chat and model tags. */
export const ollamaApiUrl = (baseUrls: Record<ProviderId, string>) => `${baseUrls.ollama}/api`;
