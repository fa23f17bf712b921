import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LibraryScenariosResponse } from '@chorus/shared/api/library';
import { api } from '@/lib/api-client';

export const libraryScenariosQueryOptions = queryOptions({
  queryKey: ['library', 'scenarios'],
  queryFn: ({ signal }) => api.get<LibraryScenariosResponse>('/rest/v1/library/scenarios', signal),
  staleTime: 60_000,
});

export const useLibraryScenarios = () => useQuery(libraryScenariosQueryOptions);
