import type { ProviderId } from './providers.ts';

/** US dollars per million tokens. */
export type ModelPrice = { input: number; output: number };

/**
 * List prices per provider and model, as the providers publish them (checked 2026-11). They
 * estimate costs shown before and after a call; the provider's own bill is the truth. A model
 * missing here (OpenRouter's dynamic list, a custom Ollama model) has no estimate rather than a
 * wrong one. Ollama runs on the user's own machine and costs nothing per token.
 */
export const modelPrices: Record<ProviderId, Record<string, ModelPrice>> = {
  openai: {
    'gpt-5-2025-08-07': { input: 1.25, output: 10 },
    'gpt-5-mini': { input: 0.25, output: 2 },
    'gpt-5-nano': { input: 0.05, output: 0.4 },
    'gpt-4.1': { input: 2, output: 8 },
    o3: { input: 2, output: 8 },
    'o4-mini': { input: 1.1, output: 4.4 },
    'gpt-4o-mini': { input: 0.15, output: 0.6 },
    'text-embedding-3-small': { input: 0.02, output: 0 },
    'text-embedding-3-large': { input: 0.13, output: 0 },
  },
  anthropic: {
    'claude-sonnet-4-5': { input: 3, output: 15 },
    'claude-haiku-4-5': { input: 1, output: 5 },
    'claude-opus-4-1': { input: 15, output: 75 },
  },
  gemini: {
    'gemini-1.5-pro': { input: 1.25, output: 5 },
    'gemini-1.5-pro-002': { input: 1.25, output: 5 },
    'gemini-1.5-flash': { input: 0.075, output: 0.3 },
    'gemini-pro': { input: 0.5, output: 1.5 },
    'gemini-embedding-001': { input: 0.15, output: 0 },
    'text-embedding-004': { input: 0, output: 0 },
  },
  deepseek: {
    'deepseek-coder': { input: 0.28, output: 0.42 },
    'deepseek-chat': { input: 0.28, output: 0.42 },
  },
  mistral: {
    'mistral-large-latest': { input: 2, output: 6 },
    'mistral-medium-latest': { input: 0.4, output: 2 },
    'mistral-small-latest': { input: 0.1, output: 0.3 },
    'mistral-embed': { input: 0.1, output: 0 },
  },
  perplexity: {
    sonar: { input: 1, output: 1 },
    'sonar-pro': { input: 3, output: 15 },
    'sonar-reasoning': { input: 1, output: 5 },
    'sonar-reasoning-pro': { input: 2, output: 8 },
    'sonar-deep-research': { input: 2, output: 8 },
  },
  ollama: {},
  openrouter: {},
};

/** The price of a model, or null when the table does not know it (never a guess). */
export const priceOf = (provider: ProviderId, model: string): ModelPrice | null => {
  if (provider === 'ollama') return { input: 0, output: 0 };
  return modelPrices[provider][model] ?? null;
};

/** Estimated US dollars for a call, rounded to a millionth; null when the price is unknown. */
export const estimateCostUsd = (
  provider: ProviderId,
  model: string,
  tokens: { input: number; output: number },
): number | null => {
  const price = priceOf(provider, model);
  if (!price) return null;
  const usd = (tokens.input * price.input + tokens.output * price.output) / 1_000_000;
  return Math.round(usd * 1_000_000) / 1_000_000;
};
