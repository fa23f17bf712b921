import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateHttpTool,
  HttpTool,
  HttpToolTestResult,
  UpdateHttpTool,
} from '@chorus/shared/api/tools';
import { httpToolPath, httpToolsQueryKey } from '@/lib/agents-tools/tool-queries';
import { api } from '@/lib/api-client';

export const useCreateHttpTool = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateHttpTool) => api.post<HttpTool>('/rest/v1/tools', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: httpToolsQueryKey }),
  });
};

export const useUpdateHttpTool = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: UpdateHttpTool }) =>
      api.patch<HttpTool>(httpToolPath(id), patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: httpToolsQueryKey }),
  });
};

/** Agents that used it lose it: the server takes it off them. */
export const useDeleteHttpTool = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(httpToolPath(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: httpToolsQueryKey }),
  });
};

/** One real call with this input: what was sent (secrets masked) and what came back. */
export const useTestHttpTool = () =>
  useMutation({
    mutationFn: ({ id, input }: { id: string; input: Record<string, unknown> }) =>
      api.post<HttpToolTestResult>(`${httpToolPath(id)}/test`, { input }),
  });
