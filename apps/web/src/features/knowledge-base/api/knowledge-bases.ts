import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateKnowledgeBase,
  KnowledgeBase,
  UpdateKnowledgeBase,
} from '@chorus/shared/api/knowledge';
import { api } from '@/lib/api-client';
import { knowledgeBasePath, knowledgeBasesQueryKey } from '@/lib/queries/knowledge-bases';

export const useCreateKnowledgeBase = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateKnowledgeBase) =>
      api.post<KnowledgeBase>('/rest/v1/knowledge-bases', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: knowledgeBasesQueryKey }),
  });
};

/** A change of embedding model starts a re-embed: the base reports its progress. */
export const useUpdateKnowledgeBase = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: UpdateKnowledgeBase }) =>
      api.patch<KnowledgeBase>(knowledgeBasePath(id), patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: knowledgeBasesQueryKey }),
  });
};

/** Its documents, their chunks and their files go with it. */
export const useDeleteKnowledgeBase = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(knowledgeBasePath(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: knowledgeBasesQueryKey }),
  });
};
