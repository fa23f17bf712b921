import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FailedJobs, JobQueues } from '@chorus/shared/api/jobs';
import { api } from '@/lib/api-client';

export const jobsQueryKey = ['admin', 'jobs'] as const;

/** Queue sizes change as work runs: the page keeps them live while it is open. */
const LIVE_MS = 5_000;

export const jobQueuesQueryOptions = () =>
  queryOptions({
    queryKey: [...jobsQueryKey, 'queues'],
    queryFn: ({ signal }) => api.get<JobQueues>('/rest/v1/admin/jobs', signal),
    refetchInterval: LIVE_MS,
  });

export const useJobQueues = () => useQuery(jobQueuesQueryOptions());

export const failedJobsQueryOptions = (name: string) =>
  queryOptions({
    queryKey: [...jobsQueryKey, 'failed', name],
    queryFn: ({ signal }) =>
      api.get<FailedJobs>(`/rest/v1/admin/jobs/${encodeURIComponent(name)}/failed`, signal),
    refetchInterval: LIVE_MS,
  });

export const useFailedJobs = (name: string) => useQuery(failedJobsQueryOptions(name));
