import { describe, expect, it } from 'vitest';
import { defaultTemperature, providerIds } from '@chorus/shared/providers';
import {
  preferredModelsKey,
  providerSettingKeys,
  readPreferredModels,
  readProviderSettings,
  togglePreferredModel,
  writeProviderSetting,
} from './provider-settings';

describe('per-provider settings in local storage', () => {
  it('uses the spec key names for every provider', () => {
    expect(providerSettingKeys('openai')).toEqual({
      model: 'openai_model',
      temperature: 'openai_temperature',
      topP: 'openai_top_p',
      maxTokens: 'openai_max_tokens',
    });
    expect(providerSettingKeys('openrouter').maxTokens).toBe('openrouter_max_tokens');
    expect(preferredModelsKey).toBe('openrouter_preferred_models');
  });

  it('falls back to each provider’s default temperature and an unset top P and max tokens', () => {
    for (const provider of providerIds) {
      const settings = readProviderSettings(provider);
      expect(settings.temperature).toBe(defaultTemperature[provider]);
      expect(settings.topP).toBeUndefined();
      expect(settings.maxTokens).toBeUndefined();
    }
    expect(readProviderSettings('gemini').temperature).toBe(0.9);
    expect(readProviderSettings('perplexity').temperature).toBe(0.2);
  });

  it('selects the spec’s fallback model, mapped into the catalogue', () => {
    expect(readProviderSettings('openai').model).toBe('gpt-5-2025-08-07');
    // gemini-1.5-pro-002 is not in the list, so it falls back to the default (spec §5).
    expect(readProviderSettings('gemini').model).toBe('gemini-1.5-pro');
    expect(readProviderSettings('openrouter').model).toBe('openrouter/auto');
  });

  it('saves and reads back what the user chose', () => {
    writeProviderSetting('anthropic', 'model', 'claude-haiku-4-5');
    writeProviderSetting('anthropic', 'temperature', 1.2);
    writeProviderSetting('anthropic', 'topP', 0.9);
    writeProviderSetting('anthropic', 'maxTokens', 512);
    expect(window.localStorage.getItem('anthropic_model')).toBe('claude-haiku-4-5');
    expect(window.localStorage.getItem('anthropic_temperature')).toBe('1.2');
    expect(window.localStorage.getItem('anthropic_top_p')).toBe('0.9');
    expect(window.localStorage.getItem('anthropic_max_tokens')).toBe('512');
    expect(readProviderSettings('anthropic')).toEqual({
      model: 'claude-haiku-4-5',
      temperature: 1.2,
      topP: 0.9,
      maxTokens: 512,
    });
  });

  it('forgets a setting saved as undefined', () => {
    writeProviderSetting('mistral', 'topP', 0.5);
    writeProviderSetting('mistral', 'topP', undefined);
    expect(window.localStorage.getItem('mistral_top_p')).toBeNull();
  });

  it('ignores stored values out of range or not numbers', () => {
    window.localStorage.setItem('openai_temperature', '7');
    window.localStorage.setItem('openai_top_p', 'lots');
    window.localStorage.setItem('openai_max_tokens', '12.5');
    window.localStorage.setItem('openai_model', 'not-a-model');
    expect(readProviderSettings('openai')).toEqual({
      model: 'gpt-5-2025-08-07',
      temperature: 0.7,
      topP: undefined,
      maxTokens: undefined,
    });
  });

  it('keeps any OpenRouter model, since its list is dynamic', () => {
    writeProviderSetting('openrouter', 'model', 'meta-llama/llama-3-70b');
    expect(readProviderSettings('openrouter').model).toBe('meta-llama/llama-3-70b');
  });

  it('keeps OpenRouter preferred models as a JSON list', () => {
    expect(readPreferredModels()).toEqual([]);
    togglePreferredModel('a/one');
    togglePreferredModel('b/two');
    expect(JSON.parse(window.localStorage.getItem(preferredModelsKey) ?? '')).toEqual([
      'a/one',
      'b/two',
    ]);
    togglePreferredModel('a/one');
    expect(readPreferredModels()).toEqual(['b/two']);
    window.localStorage.setItem(preferredModelsKey, '{broken');
    expect(readPreferredModels()).toEqual([]);
  });

  it('never writes anything that looks like an API key', () => {
    writeProviderSetting('openai', 'model', 'gpt-4.1');
    writeProviderSetting('openai', 'temperature', 0.3);
    const keys = Object.keys(window.localStorage);
    expect(keys.some((key) => key.endsWith('_api_key'))).toBe(false);
  });
});
