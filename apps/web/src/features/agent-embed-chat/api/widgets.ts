import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type {
  CreateWidget,
  UpdateWidget,
  Widget,
  WidgetWithSecret,
  widgetConversationSchema,
  widgetSessionListSchema,
  widgetUsageSchema,
} from '@chorus/shared/api/widgets';
import { api } from '@/lib/api-client';

export type WidgetSessionPage = ReturnType<(typeof widgetSessionListSchema)['parse']>;
export type WidgetConversation = ReturnType<(typeof widgetConversationSchema)['parse']>;
export type WidgetUsage = ReturnType<(typeof widgetUsageSchema)['parse']>;

/** Every widget query sits under this key: a change to one refreshes them all. */
export const widgetsQueryKey = ['widgets'] as const;

export const widgetPath = (id: string) => `/rest/v1/widgets/${encodeURIComponent(id)}`;

/** The days the usage view covers. */
export const usageDays = 30;

export const widgetsQueryOptions = () =>
  queryOptions({
    queryKey: [...widgetsQueryKey, 'list'],
    queryFn: ({ signal }) => api.get<{ items: Widget[] }>('/rest/v1/widgets', signal),
    staleTime: 30_000,
  });

/** The user's widgets. */
export const useWidgets = () => useQuery(widgetsQueryOptions());

/** One widget, for its page opened from a link before the list has it. */
export const useWidget = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: [...widgetsQueryKey, 'one', id],
    queryFn: ({ signal }) => api.get<Widget>(widgetPath(id), signal),
    enabled,
  });

export const widgetSessionsQueryOptions = (id: string, q: string) =>
  infiniteQueryOptions({
    queryKey: [...widgetsQueryKey, id, 'sessions', q],
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      if (q) params.set('q', q);
      if (pageParam) params.set('cursor', pageParam);
      const search = params.toString();
      return api.get<WidgetSessionPage>(
        `${widgetPath(id)}/sessions${search ? `?${search}` : ''}`,
        signal,
      );
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

/** A widget's visitor conversations, newest first, those matching `q` when it is given. */
export const useWidgetSessions = (id: string, q: string) =>
  useInfiniteQuery(widgetSessionsQueryOptions(id, q));

/** One visitor conversation with its messages. */
export const useWidgetConversation = (id: string, conversationId: string | null) =>
  useQuery({
    queryKey: [...widgetsQueryKey, id, 'conversation', conversationId],
    queryFn: ({ signal }) =>
      api.get<WidgetConversation>(
        `${widgetPath(id)}/sessions/${encodeURIComponent(conversationId ?? '')}`,
        signal,
      ),
    enabled: conversationId !== null,
  });

/** Messages, tokens and visitors per day, oldest first. */
export const useWidgetUsage = (id: string) =>
  useQuery({
    queryKey: [...widgetsQueryKey, id, 'usage', usageDays],
    queryFn: ({ signal }) =>
      api.get<WidgetUsage>(`${widgetPath(id)}/usage?days=${usageDays}`, signal),
  });

/** A mutation that refreshes every widget query once it succeeds. */
const useInvalidating = <V, T>(mutationFn: (variables: V) => Promise<T>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: widgetsQueryKey }),
  });
};

/** The answer is the widget with its whole secret: the only time but a rotation it is shown. */
export const useCreateWidget = () =>
  useInvalidating((body: CreateWidget) => api.post<WidgetWithSecret>('/rest/v1/widgets', body));

export const useUpdateWidget = () =>
  useInvalidating(({ id, patch }: { id: string; patch: UpdateWidget }) =>
    api.patch<Widget>(widgetPath(id), patch),
  );

export const useDeleteWidget = () =>
  useInvalidating((id: string) => api.delete<void>(widgetPath(id)));

/** A new secret: visitor tokens signed with the old one are refused from now on. */
export const useRotateWidgetSecret = () =>
  useInvalidating((id: string) => api.post<WidgetWithSecret>(`${widgetPath(id)}/secret`));

export const useBlockVisitor = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, visitorId, blocked }: { id: string; visitorId: string; blocked: boolean }) =>
      api.post<unknown>(
        `${widgetPath(id)}/visitors/${encodeURIComponent(visitorId)}/${blocked ? 'block' : 'unblock'}`,
      ),
    onSuccess: (_answer, { id }) =>
      queryClient.invalidateQueries({ queryKey: [...widgetsQueryKey, id] }),
  });
};
