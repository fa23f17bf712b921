import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { LibraryPromptsResponse } from '@chorus/shared/api/library';
import type {
  CreatePrompt,
  Prompt,
  PromptImportResult,
  PromptPage,
  PromptVersion,
  RenderedPrompt,
  UpdatePrompt,
} from '@chorus/shared/api/prompts';
import { api, apiDownload } from '@/lib/api-client';
import { fileNameFromDisposition, saveFile } from './export-conversation';

export type PromptFilter = { search: string; category: string; favorite: boolean };

export const promptsQueryKey = ['prompts'] as const;
const listKey = [...promptsQueryKey, 'list'] as const;
const promptPath = (id: string) => `/rest/v1/prompts/${encodeURIComponent(id)}`;

export const getPrompts = (
  filter: PromptFilter & { cursor: string | null; limit?: number },
  signal?: AbortSignal,
) => {
  const params = new URLSearchParams({ limit: String(filter.limit ?? 50) });
  if (filter.search.trim()) params.set('search', filter.search.trim());
  if (filter.category) params.set('category', filter.category);
  if (filter.favorite) params.set('favorite', 'true');
  if (filter.cursor) params.set('cursor', filter.cursor);
  return api.get<PromptPage>(`/rest/v1/prompts?${params.toString()}`, signal);
};

export const promptsQueryOptions = (filter: PromptFilter) =>
  infiniteQueryOptions({
    queryKey: [...listKey, filter],
    queryFn: ({ pageParam, signal }) => getPrompts({ ...filter, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

/** Keeps the previous list on screen while a new filter loads. */
export const usePrompts = (filter: PromptFilter, enabled = true) =>
  useInfiniteQuery({ ...promptsQueryOptions(filter), placeholderData: keepPreviousData, enabled });

export const promptVersionsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...promptsQueryKey, 'versions', id],
    queryFn: ({ signal }) =>
      api.get<{ items: PromptVersion[] }>(`${promptPath(id)}/versions`, signal),
  });

export const usePromptVersions = (id: string) => useQuery(promptVersionsQueryOptions(id));

export const libraryPromptsQueryOptions = queryOptions({
  queryKey: ['library', 'prompts'],
  queryFn: ({ signal }) => api.get<LibraryPromptsResponse>('/rest/v1/library/prompts', signal),
  staleTime: 60_000,
});

export const useLibraryPrompts = (enabled: boolean) =>
  useQuery({ ...libraryPromptsQueryOptions, enabled });

const invalidate = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: promptsQueryKey });

export const useCreatePrompt = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePrompt) => api.post<Prompt>('/rest/v1/prompts', body),
    onSuccess: () => invalidate(queryClient),
  });
};

export const useUpdatePrompt = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: UpdatePrompt }) =>
      api.patch<Prompt>(promptPath(id), patch),
    onSuccess: () => invalidate(queryClient),
  });
};

export const useDeletePrompt = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(promptPath(id)),
    onSuccess: () => invalidate(queryClient),
  });
};

export const useRestorePromptVersion = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) =>
      api.post<Prompt>(`${promptPath(id)}/versions/${version}/restore`),
    onSuccess: () => invalidate(queryClient),
  });
};

export const useSharePrompt = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, share }: { id: string; share: boolean }) =>
      api.post<Prompt>(`${promptPath(id)}/share`, { public: share }),
    onSuccess: () => invalidate(queryClient),
  });
};

export const useCopyLibraryPrompt = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.post<Prompt>(`/rest/v1/library/prompts/${encodeURIComponent(id)}/copy`),
    onSuccess: () => invalidate(queryClient),
  });
};

/** Below the server's 1 MB request limit, with room for the envelope. */
const importBatchBytes = 900_000;

/**
 * Splits an export's rows into requests that each stay under the server's body limit, in order.
 * Anything that is not an export with a list of rows goes as it is, for the server to refuse.
 */
export const importBatches = (file: unknown): { body: unknown; firstRow: number }[] => {
  const rows = (file as { prompts?: unknown } | null)?.prompts;
  if (!file || typeof file !== 'object' || !Array.isArray(rows) || rows.length === 0) {
    return [{ body: file, firstRow: 1 }];
  }
  const encoder = new TextEncoder();
  const batches: { body: unknown; firstRow: number }[] = [];
  let batch: unknown[] = [];
  let bytes = 0;
  let firstRow = 1;
  rows.forEach((row, index) => {
    const size = encoder.encode(JSON.stringify(row) ?? 'null').length + 1;
    if (batch.length > 0 && bytes + size > importBatchBytes) {
      batches.push({ body: { ...file, prompts: batch }, firstRow });
      batch = [];
      bytes = 0;
      firstRow = index + 1;
    }
    batch.push(row);
    bytes += size;
  });
  batches.push({ body: { ...file, prompts: batch }, firstRow });
  return batches;
};

/** Imports an export file, in as many requests as its size needs; rows keep their numbers. */
export const importPrompts = async (file: unknown): Promise<PromptImportResult> => {
  const total: PromptImportResult = { imported: 0, refused: [] };
  for (const { body, firstRow } of importBatches(file)) {
    const result = await api.post<PromptImportResult>('/rest/v1/prompts/import', body);
    total.imported += result.imported;
    total.refused.push(...result.refused.map((r) => ({ ...r, row: r.row + firstRow - 1 })));
  }
  return total;
};

export const useImportPrompts = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importPrompts,
    onSettled: () => invalidate(queryClient),
  });
};

/** Every field with the variables filled in; a missing one is a 400 that names it. */
export const renderPrompt = (id: string, variables: Record<string, string>) =>
  api.post<RenderedPrompt>(`${promptPath(id)}/render`, { variables });

/** Downloads all of the user's prompts as a JSON file; answers the file's name. */
export const exportPrompts = async (): Promise<string> => {
  const response = await apiDownload('/rest/v1/prompts/export');
  const fileName =
    fileNameFromDisposition(response.headers.get('content-disposition')) ?? 'chorus-prompts.json';
  saveFile(await response.blob(), fileName);
  return fileName;
};

/** A few of the user's prompts matching `search`, for the composer's `/` picker. */
export const usePromptSuggestions = (search: string, enabled: boolean) =>
  useQuery({
    queryKey: [...listKey, 'suggestions', search],
    queryFn: ({ signal }) =>
      getPrompts({ search, category: '', favorite: false, cursor: null, limit: 8 }, signal),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });

export const getPrompt = (id: string, signal?: AbortSignal) =>
  api.get<Prompt>(promptPath(id), signal);
