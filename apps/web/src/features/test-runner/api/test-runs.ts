import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import type {
  StartTestRun,
  TestResult,
  TestRunEstimate,
  TestRunList,
  TestRunMatrix,
  TestRunStatus,
  TestRunStatusBody,
} from '@chorus/shared/api/test-runs';
import { api, apiDownload } from '@/lib/api-client';
import { isClientError } from '@/lib/api-error';
import { fileNameFromDisposition, saveFile } from '@/lib/queries/export-conversation';
import { testRunnerQueryKey, useInvalidating } from './test-sets';

/** What the run's status may also say once it has ended: how its e-mail went. */
export type RunNotification = { sent: boolean; message: string };
export type RunStatus = TestRunStatusBody & { notification?: RunNotification | null };

export const runFunctionPath = (id: string) => `/functions/v1/test-run/${encodeURIComponent(id)}`;
const runRestPath = (id: string) => `/rest/v1/test-runs/${encodeURIComponent(id)}`;

/** The results page of one run in the app. */
export const testRunPagePath = (id: string) => `/test-runner/runs/${encodeURIComponent(id)}`;

/**
 * How often a run that is still going is read again: its status, its matrix, and lists of runs.
 * A tab may make 50 data requests a minute before its own limiter blocks it for 10 s (spec §9,
 * `rateLimitWindows.data`), and a run can go on for minutes: the run page polls 30 + 10 a
 * minute, the test runner page 20 (sets) + 15 (runs), leaving room for what the person does.
 */
export const statusPollMs = 2_000;
export const matrixPollMs = 6_000;
export const runsPollMs = 4_000;

export const isGoing = (status: TestRunStatus | undefined) =>
  status === 'queued' || status === 'running';

const runsKey = [...testRunnerQueryKey, 'runs'] as const;

export const testRunsQueryOptions = (setId: string | null) =>
  infiniteQueryOptions({
    queryKey: [...runsKey, 'list', setId ?? 'all'],
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      if (setId) params.set('test_set_id', setId);
      if (pageParam) params.set('cursor', pageParam);
      const query = params.toString();
      return api.get<TestRunList>(`/rest/v1/test-runs${query ? `?${query}` : ''}`, signal);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

/**
 * Runs, newest first (of one set, or all of the user's), a page at a time; read again every few
 * seconds while one of them is going, unless `live` is false (a run's page reads its own status
 * and reads the list again when the run ends).
 */
export const useTestRuns = (setId: string | null, { live = true }: { live?: boolean } = {}) =>
  useInfiniteQuery({
    ...testRunsQueryOptions(setId),
    refetchInterval: (query) =>
      live && query.state.data?.pages.some((page) => page.items.some((run) => isGoing(run.status)))
        ? runsPollMs
        : false,
  });

/** A run's status and progress, read every couple of seconds while it is queued or running. */
export const useTestRunStatus = (id: string) =>
  useQuery({
    queryKey: [...runsKey, 'one', id, 'status'],
    queryFn: ({ signal }) => api.get<RunStatus>(runFunctionPath(id), signal),
    refetchInterval: (query) => (isGoing(query.state.data?.status) ? statusPollMs : false),
    retry: (failures, error) => !isClientError(error) && failures < 2,
    staleTime: 0,
  });

/** The run's matrix, compared with `compareTo` when given; read again while the run goes. */
export const useTestRunMatrix = (id: string, compareTo: string | null, going: boolean) =>
  useQuery({
    queryKey: [...runsKey, 'one', id, 'matrix', compareTo ?? 'none'],
    queryFn: ({ signal }) =>
      api.get<TestRunMatrix>(
        `${runRestPath(id)}${compareTo ? `?compare_to=${encodeURIComponent(compareTo)}` : ''}`,
        signal,
      ),
    refetchInterval: going ? matrixPollMs : false,
    placeholderData: keepPreviousData,
    retry: (failures, error) => !isClientError(error) && failures < 2,
    staleTime: 0,
  });

/** Every repeat of one cell, in full. */
export const useTestResults = (id: string, cell: { caseId: string; target: number } | null) =>
  useQuery({
    queryKey: [...runsKey, 'one', id, 'results', cell?.caseId, cell?.target],
    queryFn: ({ signal }) =>
      api.get<{ items: TestResult[] }>(
        `${runRestPath(id)}/results?case_id=${encodeURIComponent(cell?.caseId ?? '')}&target=${cell?.target ?? 0}`,
        signal,
      ),
    enabled: cell !== null,
    staleTime: 0,
  });

export const useTestRunEstimate = (body: StartTestRun | null) =>
  useQuery({
    queryKey: [...testRunnerQueryKey, 'estimate', body],
    queryFn: () => api.post<TestRunEstimate>('/functions/v1/test-run/estimate', body),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: false,
  });

/** Starts a run as a job: the answer is the queued run, which its page then follows. */
export const useStartTestRun = () =>
  useInvalidating((body: StartTestRun) => api.post<RunStatus>('/functions/v1/test-run', body));

export const useCancelTestRun = () =>
  useInvalidating((id: string) => api.post<RunStatus>(`${runFunctionPath(id)}/cancel`));

export const useDeleteTestRun = () =>
  useInvalidating((id: string) => api.delete<void>(runRestPath(id)));

/** Downloads the run's results as a file; answers the file's name. */
export const exportTestRun = async (id: string, format: 'csv' | 'json'): Promise<string> => {
  const response = await apiDownload(`${runRestPath(id)}/export?format=${format}`);
  const fileName =
    fileNameFromDisposition(response.headers.get('content-disposition')) ??
    `test-run-${id}.${format}`;
  saveFile(await response.blob(), fileName);
  return fileName;
};
