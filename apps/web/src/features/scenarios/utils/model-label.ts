import { isProviderId, providers } from '@chorus/shared/providers';

/** "GPT-5 mini" for a known model, the model id otherwise, "default model" for none. */
export const modelLabel = (provider: string, model: string): string => {
  if (!model) return 'default model';
  if (!isProviderId(provider)) return model;
  return providers[provider].models.find((option) => option.value === model)?.label ?? model;
};

export const providerLabel = (provider: string): string =>
  isProviderId(provider) ? providers[provider].name : provider;
