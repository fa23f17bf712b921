import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CreateMcpServer, McpServer, mcpToolCallResultSchema } from '@chorus/shared/api/tools';
import { mcpServerPath, mcpServersQueryKey, mcpToolPath } from '@/lib/agents-tools/tool-queries';
import { api } from '@/lib/api-client';

export type McpToolCallResult = z.infer<typeof mcpToolCallResultSchema>;

const useServersChange = <A, R>(mutationFn: (args: A) => Promise<R>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    // A failed sync changes the server's status too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: mcpServersQueryKey }),
  });
};

/** The server is asked for its tools at once: a failure to connect comes back as the answer. */
export const useAddMcpServer = () =>
  useServersChange((body: CreateMcpServer) => api.post<McpServer>('/rest/v1/mcp-servers', body));

export const useDeleteMcpServer = () =>
  useServersChange((id: string) => api.delete<void>(mcpServerPath(id)));

/** Asks the server for its tools again; a changed one waits for approval. */
export const useSyncMcpServer = () =>
  useServersChange((id: string) => api.post<McpServer>(`${mcpServerPath(id)}/sync`));

export const useSetMcpToolEnabled = () =>
  useServersChange(
    ({ serverId, toolId, enabled }: { serverId: string; toolId: string; enabled: boolean }) =>
      api.patch<unknown>(mcpToolPath(serverId, toolId), { enabled }),
  );

/** `hash`: the definition the user reviewed; the server refuses when it changed again since. */
export const useApproveMcpTool = () =>
  useServersChange(
    ({ serverId, toolId, hash }: { serverId: string; toolId: string; hash: string }) =>
      api.post<unknown>(`${mcpToolPath(serverId, toolId)}/approve`, { hash }),
  );

export const useCallMcpTool = () =>
  useMutation({
    mutationFn: ({
      serverId,
      toolId,
      input,
    }: {
      serverId: string;
      toolId: string;
      input: Record<string, unknown>;
    }) => api.post<McpToolCallResult>(`${mcpToolPath(serverId, toolId)}/call`, { input }),
  });
