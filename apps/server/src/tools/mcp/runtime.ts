import type { LookupFunction } from 'node:net';
import { dynamicTool, jsonSchema, type Tool } from 'ai';
import { toolNamePattern } from '@chorus/shared/api/tools';
import {
  isToolUsable,
  McpRepository,
  type McpServerRow,
  type McpToolRow,
} from '../../db/repositories/mcp.ts';
import type { Deps } from '../../http/app-env.ts';
import { isUuid } from '../../http/uuid.ts';
import type { AllowList } from '../../net/address-check.ts';
import { toolFailure } from '../builtin/tool-failure.ts';
import { McpFailure, type McpConnection } from './client.ts';
import { checkApprovedDefinition, connectStoredServer } from './sync.ts';

export type McpToolsForModel = {
  /** By the name the model calls each tool: `<server>__<tool>`, sanitised. */
  tools: Record<string, Tool>;
  /** The key (`mcp:<id>`) of each tool name. */
  keys: Map<string, string>;
  /** Tools asked for that are not offered, each as `mcp:<id> (why)`. */
  skipped: string[];
  /** Ends the sessions with the servers; call it when the run ends. */
  close(): Promise<void>;
};

export type McpRuntimeContext = {
  /** The admin's allow-list of private hosts (readOutboundAllowList). */
  allow: AllowList;
  /** Resolves host names; tests only. */
  lookup?: LookupFunction | undefined;
  signal?: AbortSignal | undefined;
};

const slug = (text: string) => text.replace(/[^a-zA-Z0-9_]+/g, '_').replace(/^_+|_+$/g, '');

/** `<server>__<tool>`, as providers accept tool names, and unique among `taken`. */
export const modelToolName = (serverName: string, toolName: string, taken: Set<string>) => {
  const server = slug(serverName).slice(0, 20) || 'mcp';
  let base = `${/^[a-zA-Z]/.test(server) ? '' : 'mcp_'}${server}__${slug(toolName) || 'tool'}`;
  base = base.slice(0, 64);
  let name = base;
  for (let n = 2; taken.has(name) || !toolNamePattern.test(name); n += 1) {
    const suffix = `_${n}`;
    name = `${base.slice(0, 64 - suffix.length)}${suffix}`;
  }
  taken.add(name);
  return name;
};

/** Why a stored tool is not offered; undefined when it is usable. */
const unusableReason = (tool: McpToolRow) => {
  if (tool.removed) return 'its MCP server no longer offers it';
  if (tool.pending_hash !== null) return 'its definition changed: approve it under Tools';
  if (!isToolUsable(tool)) return 'it is turned off under Tools';
  return undefined;
};

const inputSchemaOf = (tool: McpToolRow) => ({
  ...tool.input_schema,
  type: 'object' as const,
});

/**
 * The user's MCP tools an agent run may call, as AI SDK tools: only enabled tools whose approved
 * definition the server still gives (checked by hash when connecting; a changed tool is marked
 * pending and left out). One session per server, closed by `close()`. The definitions handed to
 * the model are the stored, approved ones; a failed call is a `{ error }` result, never a throw.
 */
export const openMcpToolsForModel = async (
  deps: Pick<Deps, 'database' | 'box' | 'config'>,
  userId: string,
  mcpToolIds: readonly string[],
  ctx: McpRuntimeContext,
): Promise<McpToolsForModel> => {
  const repo = new McpRepository(deps.database.db, userId, deps.box);
  const skipped: string[] = [];
  const skip = (id: string, why: string) => skipped.push(`mcp:${id} (${why})`);
  const ids = [...new Set(mcpToolIds)];
  const rows = await repo.toolsWithServers(ids.filter(isUuid));
  const found = new Set(rows.map((row) => row.tool.id));
  for (const id of ids) if (!found.has(id)) skip(id, 'deleted');

  const byServer = new Map<string, { server: McpServerRow; tools: McpToolRow[] }>();
  for (const { tool, server } of rows) {
    const why = unusableReason(tool);
    if (why) {
      skip(tool.id, `${server.name} / ${tool.name}: ${why}`);
      continue;
    }
    const entry = byServer.get(server.id) ?? { server, tools: [] };
    entry.tools.push(tool);
    byServer.set(server.id, entry);
  }

  const connections: McpConnection[] = [];
  const tools: Record<string, Tool> = {};
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  const outbound = {
    allow: ctx.allow,
    lookup: ctx.lookup,
    signal: ctx.signal,
    appUrl: deps.config.appUrl,
  };

  const opened = await Promise.allSettled(
    [...byServer.values()].map(async ({ server, tools: wanted }) => {
      const connection = await connectStoredServer(repo, server, outbound);
      connections.push(connection);
      return { server, wanted, connection, listed: await connection.listTools() };
    }),
  );
  const entries = [...byServer.values()];
  for (const [index, result] of opened.entries()) {
    const { server, tools: wanted } = entries[index]!;
    if (result.status === 'rejected') {
      const message = result.reason instanceof Error ? result.reason.message : 'it failed';
      // A sign-in that lapsed (a refresh refused) shows on the server's card under Tools.
      if (
        result.reason instanceof McpFailure &&
        result.reason.code === 'mcp:authorization_required'
      ) {
        await repo.recordFailure(server.id, { code: result.reason.code, message });
      }
      for (const tool of wanted) skip(tool.id, `${server.name} could not be reached: ${message}`);
      continue;
    }
    const { connection, listed } = result.value;
    for (const tool of wanted) {
      const check = await checkApprovedDefinition(repo, tool, listed);
      if (!check.ok) {
        skip(tool.id, `${server.name} / ${tool.name}: ${check.message}`);
        continue;
      }
      const name = modelToolName(server.name, tool.name, taken);
      keys.set(name, `mcp:${tool.id}`);
      tools[name] = dynamicTool({
        description: tool.description,
        inputSchema: jsonSchema(inputSchemaOf(tool)),
        execute: async (input, { abortSignal }) => {
          try {
            const args =
              input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
            const answer = await connection.callTool(tool.name, args, abortSignal);
            return answer.isError
              ? toolFailure(answer.output || 'The tool failed.')
              : answer.output;
          } catch (error) {
            return toolFailure(
              error instanceof Error && error.message
                ? error.message
                : 'The MCP tool could not be called.',
            );
          }
        },
      });
    }
  }

  return {
    tools,
    keys,
    skipped,
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
};
