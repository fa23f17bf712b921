import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type {
  CreateSchedule,
  Schedule,
  scheduleListSchema,
  schedulePreviewSchema,
  scheduleRunListSchema,
} from '@chorus/shared/api/schedules';
import { api } from '@/lib/api-client';

type ScheduleList = ReturnType<(typeof scheduleListSchema)['parse']>;
type ScheduleRunPage = ReturnType<(typeof scheduleRunListSchema)['parse']>;
export type SchedulePreview = ReturnType<(typeof schedulePreviewSchema)['parse']>;

/** Every schedule query sits under this key: a change to one refreshes them all. */
export const schedulesQueryKey = ['schedules'] as const;

export const schedulePath = (id: string) => `/rest/v1/schedules/${encodeURIComponent(id)}`;

export const useSchedules = () =>
  useQuery({
    queryKey: [...schedulesQueryKey, 'list'],
    queryFn: ({ signal }) => api.get<ScheduleList>('/rest/v1/schedules', signal),
    staleTime: 30_000,
    // Occurrences come on their own: while any schedule is on, its last run and next time are
    // read again now and then (a run going on, more often).
    refetchInterval: (query) => {
      const list = query.state.data?.schedules ?? [];
      if (list.some((s) => s.last_run?.status === 'running')) return 3_000;
      return list.some((s) => s.enabled) ? 15_000 : false;
    },
  });

export const scheduleRunsQueryOptions = (id: string) =>
  infiniteQueryOptions({
    queryKey: [...schedulesQueryKey, id, 'runs'],
    queryFn: ({ pageParam, signal }) =>
      api.get<ScheduleRunPage>(
        `${schedulePath(id)}/runs${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
        signal,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // The history open on screen shows new occurrences, and a running one until it ends.
    refetchInterval: (query) =>
      query.state.data?.pages[0]?.runs[0]?.status === 'running' ? 3_000 : 15_000,
  });

/** A schedule's occurrences, newest first, a page at a time. */
export const useScheduleRuns = (id: string) => useInfiniteQuery(scheduleRunsQueryOptions(id));

/**
 * The expression in words and its next runs, as typed: `cron` is the debounced text, and the
 * last good answer stays on screen while the next one loads.
 */
export const useSchedulePreview = (cron: string, timeZone: string) =>
  useQuery({
    queryKey: [...schedulesQueryKey, 'preview', cron, timeZone],
    queryFn: ({ signal }) =>
      api.get<SchedulePreview>(
        `/rest/v1/schedules/preview?${new URLSearchParams({ cron, time_zone: timeZone }).toString()}`,
        signal,
      ),
    enabled: cron.trim() !== '',
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

const useScheduleMutation = <T>(mutationFn: (arg: T) => Promise<Schedule>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesQueryKey }),
  });
};

export const useCreateSchedule = () =>
  useScheduleMutation((body: CreateSchedule) => api.post<Schedule>('/rest/v1/schedules', body));

export const useUpdateSchedule = () =>
  useScheduleMutation(({ id, patch }: { id: string; patch: CreateSchedule }) =>
    api.patch<Schedule>(schedulePath(id), patch),
  );

export const usePauseSchedule = () =>
  useScheduleMutation((id: string) => api.post<Schedule>(`${schedulePath(id)}/pause`));

export const useResumeSchedule = () =>
  useScheduleMutation((id: string) => api.post<Schedule>(`${schedulePath(id)}/resume`));

export const useDeleteSchedule = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(schedulePath(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesQueryKey }),
  });
};

/** Runs a schedule's target now, outside its times; the occurrence shows in its history. */
export const useRunScheduleNow = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<unknown>(`${schedulePath(id)}/run-now`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesQueryKey }),
  });
};
