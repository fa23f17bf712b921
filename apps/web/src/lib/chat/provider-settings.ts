import { useCallback, useMemo, useState } from 'react';
import {
  defaultTemperature,
  fallbackSelectedModel,
  resolveModel,
  type ProviderId,
} from '@chorus/shared/providers';
import { storage } from '@/lib/storage';

/** Spec §3: the per-provider local-storage keys. Never a key: those stay on the server. */
export const providerSettingKeys = (provider: ProviderId) => ({
  model: `${provider}_model`,
  temperature: `${provider}_temperature`,
  topP: `${provider}_top_p`,
  maxTokens: `${provider}_max_tokens`,
});

export const preferredModelsKey = 'openrouter_preferred_models';

export type ProviderSettings = {
  model: string;
  temperature: number;
  /** Unset: the provider's own default. */
  topP: number | undefined;
  maxTokens: number | undefined;
};

export const settingLimits = {
  temperature: { min: 0, max: 2 },
  topP: { min: 0, max: 1 },
  maxTokens: { min: 1, max: 200_000 },
} as const;

const readNumber = (
  key: string,
  { min, max }: { min: number; max: number },
  integer = false,
): number | undefined => {
  const raw = storage.get(key);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) return undefined;
  if (integer && !Number.isInteger(value)) return undefined;
  return value;
};

/** The saved settings, with the spec's fallbacks (model §3 and §5, temperature §9). */
export const readProviderSettings = (provider: ProviderId): ProviderSettings => {
  const keys = providerSettingKeys(provider);
  return {
    model: resolveModel(provider, storage.get(keys.model) ?? fallbackSelectedModel[provider]),
    temperature:
      readNumber(keys.temperature, settingLimits.temperature) ?? defaultTemperature[provider],
    topP: readNumber(keys.topP, settingLimits.topP),
    maxTokens: readNumber(keys.maxTokens, settingLimits.maxTokens, true),
  };
};

/** Saves one setting; `undefined` forgets it so the default applies again. */
export const writeProviderSetting = <K extends keyof ProviderSettings>(
  provider: ProviderId,
  name: K,
  value: ProviderSettings[K],
) => {
  const key = providerSettingKeys(provider)[name];
  if (value === undefined) storage.remove(key);
  else storage.set(key, String(value));
};

export const readPreferredModels = (): string[] => {
  const raw = storage.get(preferredModelsKey);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed)
      ? parsed.filter((item): item is string => typeof item === 'string')
      : [];
  } catch {
    return [];
  }
};

export const togglePreferredModel = (model: string): string[] => {
  const current = readPreferredModels();
  const next = current.includes(model)
    ? current.filter((item) => item !== model)
    : [...current, model];
  storage.set(preferredModelsKey, JSON.stringify(next));
  return next;
};

/** The live settings of one provider; every change is written to local storage at once. */
export const useProviderSettings = (provider: ProviderId) => {
  const [saved, setSaved] = useState(() => ({
    provider,
    settings: readProviderSettings(provider),
  }));
  const fresh = useMemo(() => readProviderSettings(provider), [provider]);
  const settings = saved.provider === provider ? saved.settings : fresh;
  const update = useCallback(
    <K extends keyof ProviderSettings>(name: K, value: ProviderSettings[K]) => {
      writeProviderSetting(provider, name, value);
      setSaved({ provider, settings: readProviderSettings(provider) });
    },
    [provider],
  );
  /** Forgets temperature, top P and max tokens; the chosen model stays. */
  const reset = useCallback(() => {
    const keys = providerSettingKeys(provider);
    for (const key of [keys.temperature, keys.topP, keys.maxTokens]) storage.remove(key);
    setSaved({ provider, settings: readProviderSettings(provider) });
  }, [provider]);
  return { settings, update, reset };
};
