import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TestCaseList } from '@chorus/shared/api/scenarios';
import type { z } from 'zod';
import type {
  createTestSetSchema,
  CreateTestCase,
  ImportTestCases,
  ImportTestCasesResult,
  TestSet,
  TestSetCase,
  TestSetList,
  UpdateTestCase,
  UpdateTestSet,
} from '@chorus/shared/api/test-runs';
import { api } from '@/lib/api-client';
import { isClientError } from '@/lib/api-error';

/** Every test-runner query sits under this key: a change anywhere refreshes what shows it. */
export const testRunnerQueryKey = ['test-runner'] as const;

const setsKey = [...testRunnerQueryKey, 'sets'] as const;

export const testSetPath = (id: string) => `/rest/v1/test-sets/${encodeURIComponent(id)}`;

/** The page of one set in the app. */
export const testSetPagePath = (id: string) => `/test-runner/sets/${encodeURIComponent(id)}`;

export const testSetsQueryOptions = () =>
  queryOptions({
    queryKey: [...setsKey, 'list'],
    queryFn: ({ signal }) => api.get<TestSetList>('/rest/v1/test-sets', signal),
  });

/** The user's test sets, each with its last run: read again every few seconds while one goes. */
export const useTestSets = () =>
  useQuery({
    ...testSetsQueryOptions(),
    refetchInterval: (query) =>
      query.state.data?.items.some(
        (set) => set.last_run?.status === 'queued' || set.last_run?.status === 'running',
      )
        ? 3_000
        : false,
  });

export const useTestSet = (id: string) =>
  useQuery({
    queryKey: [...setsKey, 'one', id],
    queryFn: ({ signal }) => api.get<TestSet>(testSetPath(id), signal),
    // A missing or foreign set stays missing: no retries before saying so.
    retry: (failures, error) => !isClientError(error) && failures < 2,
  });

export const useTestSetCases = (id: string) =>
  useQuery({
    queryKey: [...setsKey, 'one', id, 'cases'],
    queryFn: ({ signal }) => api.get<{ items: TestSetCase[] }>(`${testSetPath(id)}/cases`, signal),
  });

/** A mutation that refreshes the test runner's queries (or those under `queryKey`) once it succeeds. */
export const useInvalidating = <V, T>(
  mutationFn: (variables: V) => Promise<T>,
  queryKey: readonly unknown[] = testRunnerQueryKey,
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
};

export const useCreateTestSet = () =>
  useInvalidating((body: z.input<typeof createTestSetSchema>) =>
    api.post<TestSet>('/rest/v1/test-sets', body),
  );

export const useUpdateTestSet = () =>
  useInvalidating(({ id, patch }: { id: string; patch: UpdateTestSet }) =>
    api.patch<TestSet>(testSetPath(id), patch),
  );

export const useDeleteTestSet = () =>
  useInvalidating((id: string) => api.delete<void>(testSetPath(id)));

export const useCreateTestCase = (setId: string) =>
  useInvalidating((body: CreateTestCase) =>
    api.post<TestSetCase>(`${testSetPath(setId)}/cases`, body),
  );

const casePath = (setId: string, caseId: string) =>
  `${testSetPath(setId)}/cases/${encodeURIComponent(caseId)}`;

export const useUpdateTestCase = (setId: string) =>
  useInvalidating(({ id, patch }: { id: string; patch: UpdateTestCase }) =>
    api.patch<TestSetCase>(casePath(setId, id), patch),
  );

export const useDeleteTestCase = (setId: string) =>
  useInvalidating((caseId: string) => api.delete<void>(casePath(setId, caseId)));

/** Nothing is imported when a row is refused: the answer (or the 422's message) names the rows. */
export const useImportTestCases = (setId: string) =>
  useInvalidating((body: ImportTestCases) =>
    api.post<ImportTestCasesResult>(`${testSetPath(setId)}/cases/import`, body),
  );

/** Cases saved from scenario columns that no set holds yet. */
export const useUnfiledTestCases = (enabled: boolean) =>
  useQuery({
    queryKey: [...testRunnerQueryKey, 'unfiled'],
    queryFn: ({ signal }) =>
      api.get<TestCaseList>('/rest/v1/test-cases?unfiled=true&limit=200', signal),
    enabled,
    staleTime: 0,
  });

export const useFileTestCases = (setId: string) =>
  useInvalidating((caseIds: string[]) =>
    api.post<unknown>(`${testSetPath(setId)}/cases/file`, { case_ids: caseIds }),
  );
