import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HttpTool, McpServer } from '@chorus/shared/api/tools';
import { api } from '@/lib/api-client';

// The tools page edits these lists and the agent dialog picks from them: both read them here.

/** Every HTTP-tool query sits under this key: a change to one refreshes them all. */
export const httpToolsQueryKey = ['http-tools'] as const;

/** Every MCP-server query sits under this key: a sync or an approval refreshes them all. */
export const mcpServersQueryKey = ['mcp-servers'] as const;

export const httpToolPath = (id: string) => `/rest/v1/tools/${encodeURIComponent(id)}`;

export const mcpServerPath = (id: string) => `/rest/v1/mcp-servers/${encodeURIComponent(id)}`;

export const mcpToolPath = (serverId: string, toolId: string) =>
  `${mcpServerPath(serverId)}/tools/${encodeURIComponent(toolId)}`;

export const httpToolsQueryOptions = () =>
  queryOptions({
    queryKey: [...httpToolsQueryKey, 'list'],
    queryFn: ({ signal }) => api.get<{ tools: HttpTool[] }>('/rest/v1/tools', signal),
    staleTime: 30_000,
  });

export const mcpServersQueryOptions = () =>
  queryOptions({
    queryKey: [...mcpServersQueryKey, 'list'],
    queryFn: ({ signal }) => api.get<{ servers: McpServer[] }>('/rest/v1/mcp-servers', signal),
    staleTime: 30_000,
  });

/** The user's HTTP tools. */
export const useHttpTools = (enabled = true) => useQuery({ ...httpToolsQueryOptions(), enabled });

/** The user's MCP servers with their tools, each tool's state and whether it is on. */
export const useMcpServers = (enabled = true) => useQuery({ ...mcpServersQueryOptions(), enabled });
