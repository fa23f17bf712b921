import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Agent, AgentVersion, CreateAgent, UpdateAgent } from '@chorus/shared/api/agents';
import { api } from '@/lib/api-client';

/** Every agent query sits under this key: a change to one refreshes them all. */
export const agentsQueryKey = ['agents'] as const;

export const agentPath = (id: string) => `/rest/v1/agents/${encodeURIComponent(id)}`;

export const agentsQueryOptions = () =>
  queryOptions({
    queryKey: [...agentsQueryKey, 'list'],
    queryFn: ({ signal }) => api.get<{ agents: Agent[] }>('/rest/v1/agents', signal),
    staleTime: 30_000,
  });

/** The user's agents. */
export const useAgents = () => useQuery(agentsQueryOptions());

export const agentVersionsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...agentsQueryKey, id, 'versions'],
    queryFn: ({ signal }) =>
      api.get<{ versions: AgentVersion[] }>(`${agentPath(id)}/versions`, signal),
  });

/** An agent's saved states, each one restorable. */
export const useAgentVersions = (id: string) => useQuery(agentVersionsQueryOptions(id));

export const useCreateAgent = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAgent) => api.post<Agent>('/rest/v1/agents', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentsQueryKey }),
  });
};

export const useUpdateAgent = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: UpdateAgent }) =>
      api.patch<Agent>(agentPath(id), patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentsQueryKey }),
  });
};

export const useDeleteAgent = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(agentPath(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentsQueryKey }),
  });
};

/** A restore is a change like any other: the agent gets a new version holding the old state. */
export const useRestoreAgentVersion = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) =>
      api.post<Agent>(`${agentPath(id)}/versions/${version}/restore`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentsQueryKey }),
  });
};
