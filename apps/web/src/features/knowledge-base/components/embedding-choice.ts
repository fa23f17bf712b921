import type { ProviderAvailability } from '@chorus/shared/api/keys';
import type { KnowledgeBase } from '@chorus/shared/api/knowledge';
import {
  embeddingModels,
  embeddingProviderIds,
  isProviderId,
  providers,
  type ProviderId,
} from '@chorus/shared/providers';

/** An embedding provider and model, or null: full text only. */
export type EmbeddingChoice = { provider: ProviderId; model: string } | null;

/** The value of the "None" option of the embedding select. */
export const noEmbedding = 'none';

export const choiceValue = (choice: EmbeddingChoice): string =>
  choice ? `${choice.provider}:${choice.model}` : noEmbedding;

export const parseChoice = (value: string): EmbeddingChoice => {
  const at = value.indexOf(':');
  if (value === noEmbedding || at < 0) return null;
  const provider = value.slice(0, at);
  return isProviderId(provider) ? { provider, model: value.slice(at + 1) } : null;
};

export const choiceOf = (
  base: Pick<KnowledgeBase, 'embedding_provider' | 'embedding_model'>,
): EmbeddingChoice =>
  base.embedding_provider && base.embedding_model
    ? { provider: base.embedding_provider, model: base.embedding_model }
    : null;

/** Whether a call to `provider` would find a key (the user's own, the default or the system's). */
export const hasKey = (availability: ProviderAvailability[] | undefined, provider: ProviderId) => {
  const entry = availability?.find((item) => item.provider === provider);
  return Boolean(entry?.enabled && entry.source !== null);
};

/**
 * The first embedding provider the user has a key for (their own, the default or the system's),
 * with its first model; else none. A keyless provider (Ollama) is offered, never picked for them:
 * it works only where the instance runs one.
 */
export const defaultChoice = (
  availability: ProviderAvailability[] | undefined,
): EmbeddingChoice => {
  const provider = embeddingProviderIds.find((id) => {
    const entry = availability?.find((item) => item.provider === id);
    return Boolean(entry?.enabled && entry.source !== null && entry.source !== 'none');
  });
  const model = provider ? embeddingModels[provider]?.[0] : undefined;
  return provider && model ? { provider, model: model.value } : null;
};

/** "OpenAI · text-embedding-3-small", or what no model means. */
export const choiceLabel = (choice: EmbeddingChoice): string => {
  if (!choice) return 'None — full text only';
  const model = embeddingModels[choice.provider]?.find((m) => m.value === choice.model);
  return `${providers[choice.provider].name} · ${model?.label ?? choice.model}`;
};

const orList = (names: string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');

/** "OpenAI, Gemini or Mistral": the providers a base can embed with that need a key. */
export const embeddingKeyNames = orList(
  embeddingProviderIds.filter((id) => !providers[id].keyOptional).map((id) => providers[id].name),
);
