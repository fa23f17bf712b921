import { describe, expect, it } from 'vitest';
import {
  defaultTemperature,
  fallbackSelectedModel,
  providerIds,
  providers,
  resolveModel,
} from './providers.ts';

describe('provider catalogue', () => {
  it('lists the eight providers of the spec, each with its default among its models', () => {
    expect(providerIds).toHaveLength(8);
    for (const id of providerIds) {
      const p = providers[id];
      expect(p.id).toBe(id);
      expect(p.models.map((m) => m.value)).toContain(p.defaultModel);
    }
  });

  it('uses a current Claude Sonnet as the Anthropic default and sonar as the Perplexity fallback', () => {
    expect(providers.anthropic.defaultModel).toMatch(/^claude-sonnet-/);
    expect(fallbackSelectedModel.perplexity).toBe('sonar');
  });

  it('marks only gemini and perplexity as web-search providers, and openrouter as dynamic', () => {
    expect(providerIds.filter((id) => providers[id].supportsWebSearch)).toEqual([
      'gemini',
      'perplexity',
    ]);
    expect(providers.openrouter.dynamicModels).toBe(true);
  });

  it('falls back to the default model for an unknown model, except for openrouter', () => {
    expect(resolveModel('openai', 'gpt-2')).toBe('gpt-5-2025-08-07');
    expect(resolveModel('ollama', fallbackSelectedModel.ollama)).toBe('llama2');
    // Ollama's list is its server's: an installed model's name:tag is taken as is.
    expect(resolveModel('ollama', 'llama3.2:latest')).toBe('llama3.2:latest');
    expect(resolveModel('ollama', 'library/qwen2.5-coder:7b')).toBe('library/qwen2.5-coder:7b');
    expect(resolveModel('ollama', 'gpt-4o')).toBe('llama2');
    expect(resolveModel('mistral', ' mistral-small-latest ')).toBe('mistral-small-latest');
    expect(resolveModel('anthropic', undefined)).toBe(providers.anthropic.defaultModel);
    expect(resolveModel('openrouter', 'meta-llama/llama-3-70b')).toBe('meta-llama/llama-3-70b');
  });

  it('has the default temperatures of spec §9', () => {
    expect(defaultTemperature).toMatchObject({
      openai: 0.7,
      gemini: 0.9,
      perplexity: 0.2,
      ollama: 0.7,
    });
  });
});
