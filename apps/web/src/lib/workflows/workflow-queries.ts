import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Agent } from '@chorus/shared/api/agents';
import type { ScenarioPage } from '@chorus/shared/api/scenarios';
import type { Workflow } from '@chorus/shared/api/workflows';
import { api } from '@/lib/api-client';

// The workflows page edits these and the schedules page picks from them: both read them here.

/** Every workflow query sits under this key: a save or a run refreshes them all. */
export const workflowsQueryKey = ['workflows'] as const;

export const workflowPath = (id: string) => `/rest/v1/workflows/${encodeURIComponent(id)}`;

/** The run page of the workflows area, where a run's steps show live. */
export const workflowRunPagePath = (runId: string) => `/workflows?run=${encodeURIComponent(runId)}`;

export const workflowsQueryOptions = () =>
  queryOptions({
    queryKey: [...workflowsQueryKey, 'list'],
    queryFn: ({ signal }) => api.get<{ workflows: Workflow[] }>('/rest/v1/workflows', signal),
    staleTime: 30_000,
  });

/** The user's workflows. */
export const useWorkflows = (enabled = true) => useQuery({ ...workflowsQueryOptions(), enabled });

/** The same list the agents page reads (same key, same shape): a step or a schedule picks one. */
export const useAgentChoices = (enabled = true) =>
  useQuery({
    queryKey: ['agents', 'list'],
    queryFn: ({ signal }) => api.get<{ agents: Agent[] }>('/rest/v1/agents', signal),
    staleTime: 30_000,
    enabled,
  });

/** The user's scenarios, first hundred, for a picker. */
export const useScenarioChoices = (enabled = true) =>
  useQuery({
    queryKey: ['scenarios', 'choices'],
    queryFn: ({ signal }) => api.get<ScenarioPage>('/rest/v1/scenarios?limit=100', signal),
    staleTime: 30_000,
    enabled,
  });
