import { describe, expect, it } from 'vitest';
import { estimateCostUsd, priceOf } from './prices.ts';
import { providerIds, providers } from './providers.ts';

describe('price table', () => {
  it('prices every catalogue model of every paid provider except OpenRouter’s dynamic list', () => {
    for (const id of providerIds) {
      if (id === 'openrouter') continue;
      for (const model of providers[id].models) {
        expect(priceOf(id, model.value), `${id} ${model.value}`).not.toBeNull();
      }
    }
  });

  it('estimates a call from its tokens, and says nothing when the model is unknown', () => {
    // 1,000 in and 500 out on gpt-4o-mini: 0.00015 + 0.0003 dollars.
    expect(estimateCostUsd('openai', 'gpt-4o-mini', { input: 1000, output: 500 })).toBe(0.00045);
    expect(estimateCostUsd('ollama', 'llama2', { input: 10_000, output: 10_000 })).toBe(0);
    expect(estimateCostUsd('openrouter', 'meta/llama-3', { input: 1, output: 1 })).toBeNull();
  });
});
