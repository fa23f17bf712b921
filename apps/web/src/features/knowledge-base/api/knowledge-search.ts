import { useMutation } from '@tanstack/react-query';
import type { KnowledgeSearch, KnowledgeSearchResult } from '@chorus/shared/api/knowledge';
import { api } from '@/lib/api-client';

/** Hybrid search over the user's bases: what a chat would retrieve for the same words. */
export const searchKnowledge = (body: KnowledgeSearch) =>
  api.post<KnowledgeSearchResult>('/functions/v1/knowledge-search', body);

export const useKnowledgeSearch = () => useMutation({ mutationFn: searchKnowledge });
