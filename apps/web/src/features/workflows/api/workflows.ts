import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type {
  CreateWorkflow,
  StartWorkflowRun,
  Workflow,
  WorkflowRun,
  workflowRunListSchema,
  workflowVersionListSchema,
} from '@chorus/shared/api/workflows';
import { api } from '@/lib/api-client';
import { workflowPath, workflowsQueryKey } from '@/lib/workflows/workflow-queries';

type WorkflowRunPage = ReturnType<(typeof workflowRunListSchema)['parse']>;
type WorkflowVersionList = ReturnType<(typeof workflowVersionListSchema)['parse']>;

export const workflowRunPath = (runId: string) =>
  `/rest/v1/workflow-runs/${encodeURIComponent(runId)}`;

/** How often a run that is still going is read again. */
export const runPollMs = 1_000;

const isGoing = (run: WorkflowRun | undefined) =>
  run !== undefined && (run.status === 'queued' || run.status === 'running');

export const workflowQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...workflowsQueryKey, 'one', id],
    queryFn: ({ signal }) => api.get<Workflow>(workflowPath(id), signal),
  });

/** One workflow, for an editor opened from a link before the list has it. */
export const useWorkflow = (id: string, enabled: boolean) =>
  useQuery({ ...workflowQueryOptions(id), enabled });

export const workflowRunsQueryOptions = (id: string) =>
  infiniteQueryOptions({
    queryKey: [...workflowsQueryKey, id, 'runs'],
    queryFn: ({ pageParam, signal }) =>
      api.get<WorkflowRunPage>(
        `${workflowPath(id)}/runs${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
        signal,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

/** A workflow's runs, newest first, a page at a time. */
export const useWorkflowRuns = (id: string) => useInfiniteQuery(workflowRunsQueryOptions(id));

export const useWorkflowVersions = (id: string) =>
  useQuery({
    queryKey: [...workflowsQueryKey, id, 'versions'],
    queryFn: ({ signal }) => api.get<WorkflowVersionList>(`${workflowPath(id)}/versions`, signal),
  });

/** One run, read again every second while it is queued or running, and no more once it ends. */
export const useWorkflowRun = (runId: string) =>
  useQuery({
    queryKey: [...workflowsQueryKey, 'run', runId],
    queryFn: ({ signal }) => api.get<WorkflowRun>(workflowRunPath(runId), signal),
    refetchInterval: (query) => (isGoing(query.state.data) ? runPollMs : false),
    staleTime: 0,
  });

export const useCreateWorkflow = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWorkflow) => api.post<Workflow>('/rest/v1/workflows', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowsQueryKey }),
  });
};

export const useUpdateWorkflow = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: CreateWorkflow }) =>
      api.patch<Workflow>(workflowPath(id), patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowsQueryKey }),
  });
};

export const useDeleteWorkflow = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(workflowPath(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowsQueryKey }),
  });
};

/** A restore is a change like any other: the workflow gets a new version holding the old state. */
export const useRestoreWorkflowVersion = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) =>
      api.post<Workflow>(`${workflowPath(id)}/versions/${version}/restore`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowsQueryKey }),
  });
};

/** Starts a run as a job: the answer is the queued run, which the run view then follows. */
export const useStartWorkflowRun = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartWorkflowRun) =>
      api.post<WorkflowRun>('/functions/v1/workflow-run', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowsQueryKey }),
  });
};

export const useCancelWorkflowRun = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => api.post<WorkflowRun>(`${workflowRunPath(runId)}/cancel`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowsQueryKey }),
  });
};

/** Runs again from the step that failed, with the earlier steps' outputs kept. */
export const useRetryWorkflowRun = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => api.post<WorkflowRun>(`${workflowRunPath(runId)}/retry`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowsQueryKey }),
  });
};

/** Runs an unsaved draft with sample inputs at once; nothing is stored but usage. */
export const useDryRunWorkflow = () =>
  useMutation({
    mutationFn: (body: { workflow: CreateWorkflow; inputs: StartWorkflowRun['inputs'] }) =>
      api.post<WorkflowRun>('/functions/v1/workflow-dry-run', body),
  });
