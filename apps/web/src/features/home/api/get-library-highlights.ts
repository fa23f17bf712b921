import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LibraryPromptsResponse, LibraryScenariosResponse } from '@chorus/shared/api/library';
import { api } from '@/lib/api-client';

// The keys the prompt library and the cookbook read the same lists under: one request serves all.
export const libraryPromptsQueryOptions = queryOptions({
  queryKey: ['library', 'prompts'],
  queryFn: ({ signal }) => api.get<LibraryPromptsResponse>('/rest/v1/library/prompts', signal),
  staleTime: 60_000,
});

export const libraryScenariosQueryOptions = queryOptions({
  queryKey: ['library', 'scenarios'],
  queryFn: ({ signal }) => api.get<LibraryScenariosResponse>('/rest/v1/library/scenarios', signal),
  staleTime: 60_000,
});

export const useLibraryPrompts = () => useQuery(libraryPromptsQueryOptions);
export const useLibraryScenarios = () => useQuery(libraryScenariosQueryOptions);
