import { useMemo } from 'react';
import { providers, type ModelOption, type ProviderId } from '@chorus/shared/providers';
import { useOllamaModels } from '@/lib/queries/ollama-models';
import { useOpenRouterModels } from '@/lib/queries/openrouter-models';

type ModelGroups = { preferred: ModelOption[]; others: ModelOption[] };

/**
 * The catalogue's models; Ollama's as its server lists them (the catalogue's until it answers);
 * or OpenRouter's live list with the user's preferred models first.
 */
export const useModelGroups = (provider: ProviderId, current: string, preferredIds: string[]) => {
  const dynamic = Boolean(providers[provider].dynamicModels);
  const live = useOpenRouterModels(dynamic);
  const ollama = useOllamaModels(provider === 'ollama');
  const groups = useMemo<ModelGroups>(() => {
    const catalogue = providers[provider].models;
    if (provider === 'ollama' && ollama.data?.source === 'server') {
      const installed = ollama.data.models.map((m) => ({ ...m, description: '' }));
      const others = installed.some((m) => m.value === current)
        ? installed
        : [{ value: current, label: current, description: '' }, ...installed];
      return { preferred: [], others };
    }
    if (!dynamic) return { preferred: [], others: catalogue };
    const all = new Map<string, ModelOption>();
    for (const option of catalogue) all.set(option.value, option);
    for (const model of live.data ?? []) {
      all.set(model.id, {
        value: model.id,
        label: model.name,
        description: model.description ?? '',
      });
    }
    const named = (id: string) => all.get(id) ?? { value: id, label: id, description: '' };
    const preferred = preferredIds.map(named);
    const others = [...all.values()].filter((option) => !preferredIds.includes(option.value));
    if (!all.has(current) && !preferredIds.includes(current)) others.unshift(named(current));
    return { preferred, others };
  }, [dynamic, provider, live.data, ollama.data, preferredIds, current]);
  return { groups, dynamic, loading: dynamic && live.isPending, failed: dynamic && live.isError };
};
