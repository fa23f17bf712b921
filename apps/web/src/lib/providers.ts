import {
  providerIds,
  providers,
  type ProviderEntry,
  type ProviderId,
} from '@chorus/shared/providers';

/** Spec §3: `default_ai_provider` falls back to openai. */
export const defaultAiProvider: ProviderId = 'openai';

/** The eight providers in catalogue order. */
export const providerList: ProviderEntry[] = providerIds.map((id) => providers[id]);

export const providerName = (id: string): string =>
  providerList.find((provider) => provider.id === id)?.name ?? id;

/** "a Gemini key", "an OpenAI key": the article a provider's name takes when read aloud. */
export const withArticle = (name: string): string =>
  `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
