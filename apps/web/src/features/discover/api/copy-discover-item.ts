import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Prompt } from '@chorus/shared/api/prompts';
import type { Scenario } from '@chorus/shared/api/scenarios';
import { api } from '@/lib/api-client';
import type { CopyableKind } from '../utils/discover-params';

export type CopiedItem = { kind: 'prompt'; item: Prompt } | { kind: 'scenario'; item: Scenario };

export const copyDiscoverItem = async (kind: CopyableKind, id: string): Promise<CopiedItem> => {
  const path = `/rest/v1/library/${kind === 'prompt' ? 'prompts' : 'scenarios'}/${encodeURIComponent(id)}/copy`;
  return kind === 'prompt'
    ? { kind, item: await api.post<Prompt>(path) }
    : { kind, item: await api.post<Scenario>(path) };
};

/** `prompt:<id>`, one name for an item across every kind. */
export const itemKey = (kind: string, id: string) => `${kind}:${id}`;

/**
 * "Use": a copy of a public item in the person's own space. A plain promise rather than
 * useMutation: /discover is a public page on the initial-JS budget.
 */
export const useCopyDiscoverItem = () => {
  const queryClient = useQueryClient();
  const [copying, setCopying] = useState<string | null>(null);
  const copy = async (kind: CopyableKind, id: string): Promise<CopiedItem> => {
    setCopying(itemKey(kind, id));
    try {
      const copied = await copyDiscoverItem(kind, id);
      void queryClient.invalidateQueries({
        queryKey: [kind === 'prompt' ? 'prompts' : 'scenarios'],
      });
      void queryClient.invalidateQueries({ queryKey: ['onboarding'] });
      return copied;
    } finally {
      setCopying(null);
    }
  };
  return { copy, copying };
};
