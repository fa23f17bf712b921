import type { McpRepository, McpServerRow, McpToolRow } from '../../db/repositories/mcp.ts';
import type { OutboundContext } from '../builtin/web-fetch.ts';
import {
  connectMcpServer,
  hashToolDefinition,
  McpFailure,
  type McpConnection,
  type McpToolDefinition,
} from './client.ts';
import { mcpOAuthRedirectUrl, StoredMcpOAuthProvider } from './oauth.ts';

export type McpOutbound = OutboundContext & {
  signal?: AbortSignal;
  /** The app's public URL (config.appUrl), where an OAuth sign-in comes back. */
  appUrl: string;
};

/** Connects to one of the user's servers with its stored token, or its OAuth state. */
export const connectStoredServer = (
  repo: McpRepository,
  server: McpServerRow,
  outbound: McpOutbound,
): Promise<McpConnection> =>
  connectMcpServer(
    {
      url: server.url,
      token: repo.openToken(server),
      authProvider:
        server.auth === 'oauth'
          ? new StoredMcpOAuthProvider(repo, server, mcpOAuthRedirectUrl(outbound.appUrl))
          : undefined,
    },
    outbound,
  );

/**
 * Reads the server's tools now and records them (new ones off, changed ones pending, missing
 * ones removed). A server that cannot be reached keeps its tools and is marked with the error.
 */
export const syncMcpServer = async (
  repo: McpRepository,
  server: McpServerRow,
  outbound: McpOutbound,
): Promise<{ server: McpServerRow; failure: McpFailure | null }> => {
  let connection: McpConnection | undefined;
  try {
    connection = await connectStoredServer(repo, server, outbound);
    const listed = await connection.listTools();
    const synced = await repo.applySync(
      server.id,
      connection.transport,
      listed.map((tool) => ({ ...tool, hash: hashToolDefinition(tool) })),
    );
    return { server: synced ?? server, failure: null };
  } catch (error) {
    if (!(error instanceof McpFailure)) throw error;
    const marked = await repo.recordFailure(server.id, {
      code: error.code,
      message: error.message,
    });
    return { server: marked ?? server, failure: error };
  } finally {
    await connection?.close();
  }
};

export type DefinitionCheck =
  { ok: true } | { ok: false; reason: 'changed' | 'removed'; message: string };

/**
 * Whether the server still describes the tool as the user approved it. A change is recorded as
 * pending (the tool is off until approved) and a missing tool as removed.
 */
export const checkApprovedDefinition = async (
  repo: McpRepository,
  tool: McpToolRow,
  listed: readonly McpToolDefinition[],
): Promise<DefinitionCheck> => {
  const now = listed.find((definition) => definition.name === tool.name);
  if (!now) {
    await repo.markToolRemoved(tool.id);
    return {
      ok: false,
      reason: 'removed',
      message: `The MCP server no longer offers the tool ${tool.name}.`,
    };
  }
  const hash = hashToolDefinition(now);
  if (hash === tool.hash) return { ok: true };
  await repo.markToolChanged(tool.id, { ...now, hash });
  return {
    ok: false,
    reason: 'changed',
    message: `The MCP server now describes the tool ${tool.name} differently from what was approved, so it is off until its new definition is approved under Tools.`,
  };
};
