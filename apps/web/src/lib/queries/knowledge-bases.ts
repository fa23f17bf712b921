import { queryOptions, useQuery } from '@tanstack/react-query';
import type { KnowledgeBaseList, KnowledgeChunk } from '@chorus/shared/api/knowledge';
import { api } from '@/lib/api-client';

/** Every knowledge-base query sits under this key: a change to a base refreshes them all. */
export const knowledgeBasesQueryKey = ['knowledge-bases'] as const;

export const knowledgeBasePath = (id: string) =>
  `/rest/v1/knowledge-bases/${encodeURIComponent(id)}`;

export const getKnowledgeBases = (signal?: AbortSignal) =>
  api.get<KnowledgeBaseList>('/rest/v1/knowledge-bases', signal);

export const knowledgeBasesQueryOptions = () =>
  queryOptions({
    queryKey: [...knowledgeBasesQueryKey, 'list'],
    queryFn: ({ signal }) => getKnowledgeBases(signal),
    staleTime: 15_000,
  });

/** The user's knowledge bases; the chat asks only once it has something to show or pick. */
export const useKnowledgeBases = (enabled = true) =>
  useQuery({ ...knowledgeBasesQueryOptions(), enabled });

/** One passage with its document: what a citation opens. */
export const knowledgeChunkQueryOptions = (knowledgeBaseId: string, chunkId: string) =>
  queryOptions({
    queryKey: [...knowledgeBasesQueryKey, knowledgeBaseId, 'chunks', chunkId],
    queryFn: ({ signal }) =>
      api.get<KnowledgeChunk>(
        `${knowledgeBasePath(knowledgeBaseId)}/chunks/${encodeURIComponent(chunkId)}`,
        signal,
      ),
    staleTime: 60_000,
  });
