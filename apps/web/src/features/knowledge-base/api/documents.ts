import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DocumentStatus,
  KnowledgeDocument,
  UploadDocumentsResult,
} from '@chorus/shared/api/knowledge';
import { api } from '@/lib/api-client';
import { apiUpload } from '@/lib/api-upload';
import { knowledgeBasePath, knowledgeBasesQueryKey } from '@/lib/queries/knowledge-bases';

/** How often a base with work under way is asked again. */
export const progressPollMs = 1_000;

const busyStatuses: ReadonlySet<DocumentStatus> = new Set(['queued', 'parsing', 'embedding']);

export const isProcessing = (document: Pick<KnowledgeDocument, 'status'>) =>
  busyStatuses.has(document.status);

const documentsPath = (baseId: string) => `${knowledgeBasePath(baseId)}/documents`;
const documentPath = (baseId: string, documentId: string) =>
  `${documentsPath(baseId)}/${encodeURIComponent(documentId)}`;

export const documentsQueryKey = (baseId: string) =>
  [...knowledgeBasesQueryKey, baseId, 'documents'] as const;

export const documentsQueryOptions = (baseId: string) =>
  queryOptions({
    queryKey: documentsQueryKey(baseId),
    queryFn: ({ signal }) =>
      api.get<{ documents: KnowledgeDocument[] }>(documentsPath(baseId), signal),
  });

/**
 * A base's documents, newest first. While one is queued, being read or embedded, or the base is
 * re-embedding, they are asked for every second, so the progress moves; polling stops once all
 * have settled.
 */
export const useDocuments = (baseId: string, reembedding: boolean) =>
  useQuery({
    ...documentsQueryOptions(baseId),
    refetchInterval: (query) =>
      reembedding || (query.state.data?.documents.some(isProcessing) ?? false)
        ? progressPollMs
        : false,
  });

/** Sends several files at once (multipart, field `files`); each file gets its own outcome. */
export const uploadDocuments = (baseId: string, files: File[]) => {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  return apiUpload<UploadDocumentsResult>(documentsPath(baseId), form);
};

export const useUploadDocuments = (baseId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (files: File[]) => uploadDocuments(baseId, files),
    onSettled: () => queryClient.invalidateQueries({ queryKey: knowledgeBasesQueryKey }),
  });
};

export const useDeleteDocument = (baseId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (documentId: string) => api.delete<void>(documentPath(baseId, documentId)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: knowledgeBasesQueryKey }),
  });
};

/** Reads a failed document again from its stored file. */
export const useRetryDocument = (baseId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (documentId: string) =>
      api.post<KnowledgeDocument>(`${documentPath(baseId, documentId)}/retry`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: knowledgeBasesQueryKey }),
  });
};
