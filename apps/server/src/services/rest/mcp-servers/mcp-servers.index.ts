import type { McpServer, McpTool } from '@chorus/shared/api/tools';
import { toolLimits } from '@chorus/shared/api/tools';
import { messageFor } from '@chorus/shared/error-catalogue';
import {
  isToolUsable,
  McpRepository,
  type McpServerRow,
  type McpToolRow,
} from '../../../db/repositories/mcp.ts';
import type { AuthedEnv, Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { withinUserLimit } from '../../../quota/user-limits.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import { parseOutboundUrl } from '../../../net/address-check.ts';
import { readOutboundAllowList } from '../../../net/allow-list-setting.ts';
import { auth as finishOAuth } from '@modelcontextprotocol/sdk/client/auth.js';
import { McpFailure, type McpConnection } from '../../../tools/mcp/client.ts';
import {
  isPendingSignIn,
  mcpOAuthRedirectUrl,
  parseOAuthState,
  StoredMcpOAuthProvider,
} from '../../../tools/mcp/oauth.ts';
import { createMcpFetch } from '../../../tools/mcp/outbound-fetch.ts';
import {
  checkApprovedDefinition,
  connectStoredServer,
  syncMcpServer,
  type McpOutbound,
} from '../../../tools/mcp/sync.ts';
import {
  approveMcpToolRoute,
  callMcpToolRoute,
  createMcpServerRoute,
  deleteMcpServerRoute,
  getMcpServerRoute,
  listMcpServersRoute,
  mcpOAuthCallbackRoute,
  syncMcpServerRoute,
  updateMcpServerRoute,
  updateMcpToolRoute,
} from './mcp-servers.routes.ts';

const serverNotFound = () => new ApiError(404, 'mcp:not_found');
const toolNotFound = () => new ApiError(404, 'mcp:tool_not_found');

/**
 * How requests reach the user's servers: the admin's allow-list of private hosts; an OAuth
 * sign-in comes back under the app's public URL.
 */
const outboundFor = async (deps: Deps): Promise<McpOutbound> => ({
  allow: await readOutboundAllowList(deps),
  appUrl: deps.config.appUrl,
});

const repoFor = (deps: Deps, userId: string) =>
  new McpRepository(deps.database.db, userId, deps.box);

export const toMcpTool = (row: McpToolRow): McpTool => {
  const changed = row.pending_hash !== null;
  return {
    id: row.id,
    key: `mcp:${row.id}`,
    name: row.name,
    description: row.description,
    input_schema: row.input_schema,
    enabled: isToolUsable(row),
    state: row.removed ? 'removed' : changed ? 'changed' : 'approved',
    pending: changed
      ? { description: row.pending_description ?? '', input_schema: row.pending_input_schema ?? {} }
      : null,
    // The definition the server gives now: the one to send back to approve a change.
    hash: row.pending_hash ?? row.hash,
  };
};

export const toMcpServer = (
  row: McpServerRow,
  tools: McpToolRow[],
  authorizeUrl: string | null = null,
): McpServer => ({
  id: row.id,
  name: row.name,
  url: row.url,
  auth: row.auth,
  token_hint: row.token_hint,
  transport: row.transport,
  status: row.status,
  last_error:
    row.status === 'error' && row.error_code
      ? { code: row.error_code, message: row.error_message ?? '' }
      : null,
  authorize_url: authorizeUrl,
  last_synced_at: row.last_synced_at?.toISOString() ?? null,
  tools: tools.filter((tool) => tool.server_id === row.id).map(toMcpTool),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const withTools = async (repo: McpRepository, row: McpServerRow) =>
  toMcpServer(row, await repo.listTools([row.id]), repo.authorizeUrl(row));

/** A URL that is not one Chorus fetches at all is bad input; an address is checked on connect. */
const checkUrl = (url: string) => {
  const parsed = parseOutboundUrl(url);
  if (!parsed.ok) throw new ApiError(400, 'outbound:refused', parsed.message);
  return parsed.url.href;
};

const tokenMissing = () =>
  new ApiError(
    400,
    'bad_request:validation',
    messageFor('bad_request:validation', {
      issues: [{ path: 'token', message: 'A bearer token is needed when auth is "bearer".' }],
    }),
  );

/** The failure to reach a server as the answer to a request that needed it. */
const unreachable = (failure: McpFailure) => {
  switch (failure.code) {
    case 'outbound:refused':
      return new ApiError(400, 'outbound:refused', failure.message);
    case 'outbound:timeout':
      return new ApiError(504, 'outbound:timeout', failure.message);
    case 'mcp:authorization_required':
      return new ApiError(409, 'mcp:authorization_required');
    default:
      return new ApiError(502, 'mcp:connect_failed', failure.message);
  }
};

/** The user's server and one of its tools, or the 404 that fits. */
const findTool = async (repo: McpRepository, id: string, toolId: string) => {
  if (!isUuid(id)) throw serverNotFound();
  if (!isUuid(toolId)) {
    if (!(await repo.getServer(id))) throw serverNotFound();
    throw toolNotFound();
  }
  const found = await repo.getServerAndTool(id, toolId);
  if (!found) throw serverNotFound();
  if (!found.tool) throw toolNotFound();
  return { server: found.server, tool: found.tool };
};

export const mcpServersRouter = createRouter<AuthedEnv>()
  .openapi(listMcpServersRoute, async (c) => {
    const repo = repoFor(c.var.deps, c.var.user.id);
    const rows = await repo.listServers();
    const tools = await repo.listTools(rows.map((row) => row.id));
    return c.json(
      { servers: rows.map((row) => toMcpServer(row, tools, repo.authorizeUrl(row))) },
      200,
    );
  })
  .openapi(createMcpServerRoute, async (c) => {
    const { deps, user } = c.var;
    const body = c.req.valid('json');
    const url = checkUrl(body.url);
    const token = body.auth === 'bearer' ? body.token || null : null;
    if (body.auth === 'bearer' && !token) throw tokenMissing();
    const repo = repoFor(deps, user.id);
    // Counted and stored under the user's lock: two saves at once cannot both take the last place.
    const created = await withinUserLimit(deps.database.db, 'mcp_servers', user.id, async (tx) => {
      const own = new McpRepository(tx, user.id, deps.box);
      if ((await own.countServers()) >= toolLimits.mcpServersPerUser) {
        throw new ApiError(409, 'mcp:too_many');
      }
      return own.createServer({ name: body.name, url, auth: body.auth, token });
    });
    const { server } = await syncMcpServer(repo, created, await outboundFor(deps));
    return c.json(await withTools(repo, server), 201);
  })
  .openapi(getMcpServerRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw serverNotFound();
    const repo = repoFor(c.var.deps, c.var.user.id);
    const row = await repo.getServer(id);
    if (!row) throw serverNotFound();
    return c.json(await withTools(repo, row), 200);
  })
  .openapi(updateMcpServerRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw serverNotFound();
    const body = c.req.valid('json');
    const repo = repoFor(deps, user.id);
    const row = await repo.getServer(id);
    if (!row) throw serverNotFound();
    const url = body.url === undefined ? undefined : checkUrl(body.url);
    const auth = body.auth ?? row.auth;
    // undefined keeps the stored token, null removes it, a string replaces it.
    // An OAuth server starts afresh when it becomes one or its URL changes (its registration and
    // tokens belong to the old address).
    let token: string | null | undefined;
    const urlChanged = url !== undefined && url !== row.url;
    if (auth === 'none') token = row.token === null ? undefined : null;
    else if (auth === 'oauth') token = row.auth === 'oauth' && !urlChanged ? undefined : null;
    else if (body.token) token = body.token;
    else if (body.token === '' || row.token === null || row.auth !== 'bearer') throw tokenMissing();
    const updated = await repo.updateServer(id, {
      ...(body.name !== undefined && { name: body.name }),
      ...(url !== undefined && { url }),
      auth,
      token,
    });
    if (!updated) throw serverNotFound();
    const reconnect = urlChanged || auth !== row.auth || token !== undefined;
    const server = reconnect
      ? (await syncMcpServer(repo, updated, await outboundFor(deps))).server
      : updated;
    return c.json(await withTools(repo, server), 200);
  })
  .openapi(deleteMcpServerRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw serverNotFound();
    const removed = await repoFor(c.var.deps, c.var.user.id).removeServer(id);
    if (!removed) throw serverNotFound();
    return c.body(null, 204);
  })
  .openapi(syncMcpServerRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw serverNotFound();
    const repo = repoFor(deps, user.id);
    const row = await repo.getServer(id);
    if (!row) throw serverNotFound();
    const { server, failure } = await syncMcpServer(repo, row, await outboundFor(deps));
    if (failure) throw unreachable(failure);
    return c.json(await withTools(repo, server), 200);
  })
  .openapi(updateMcpToolRoute, async (c) => {
    const { id, toolId } = c.req.valid('param');
    const { enabled } = c.req.valid('json');
    const repo = repoFor(c.var.deps, c.var.user.id);
    const { tool } = await findTool(repo, id, toolId);
    if (enabled && tool.removed) {
      throw new ApiError(
        409,
        'mcp:tool_disabled',
        'The MCP server no longer offers this tool, so it cannot be turned on. Refresh the server’s tools to check again.',
      );
    }
    if (enabled && tool.pending_hash !== null) throw new ApiError(409, 'mcp:tool_disabled');
    const row = await repo.setToolEnabled(id, toolId, enabled);
    if (!row) throw toolNotFound();
    return c.json(toMcpTool(row), 200);
  })
  .openapi(approveMcpToolRoute, async (c) => {
    const { id, toolId } = c.req.valid('param');
    const { hash } = c.req.valid('json');
    const repo = repoFor(c.var.deps, c.var.user.id);
    await findTool(repo, id, toolId);
    const result = await repo.approveTool(id, toolId, hash);
    switch (result.outcome) {
      case 'approved':
        return c.json(toMcpTool(result.tool), 200);
      case 'nothing_pending':
        throw new ApiError(409, 'mcp:nothing_to_approve');
      case 'stale':
        throw new ApiError(409, 'mcp:stale_approval');
      default:
        throw toolNotFound();
    }
  })
  .openapi(callMcpToolRoute, async (c) => {
    const { deps, user } = c.var;
    const { id, toolId } = c.req.valid('param');
    const { input } = c.req.valid('json');
    const repo = repoFor(deps, user.id);
    const { server, tool } = await findTool(repo, id, toolId);
    if (!isToolUsable(tool)) throw new ApiError(409, 'mcp:tool_disabled');
    const started = Date.now();
    let connection: McpConnection | undefined;
    try {
      connection = await connectStoredServer(repo, server, {
        ...(await outboundFor(deps)),
        signal: c.req.raw.signal,
      });
      const check = await checkApprovedDefinition(repo, tool, await connection.listTools());
      if (!check.ok) throw new ApiError(409, 'mcp:tool_disabled', check.message);
      const answer = await connection.callTool(tool.name, input, c.req.raw.signal);
      return c.json(
        { output: answer.output, is_error: answer.isError, duration_ms: Date.now() - started },
        200,
      );
    } catch (error) {
      if (!(error instanceof McpFailure)) throw error;
      if (error.code === 'mcp:authorization_required') {
        await repo.recordFailure(server.id, { code: error.code, message: error.message });
      }
      throw unreachable(error);
    } finally {
      await connection?.close();
    }
  })
  .openapi(mcpOAuthCallbackRoute, async (c) => {
    const { deps, user } = c.var;
    const query = c.req.valid('query');
    // The browser lands here: every outcome goes back to Tools, a refusal with its reason and
    // code, rather than leaving the user on a page of JSON.
    const back = (params: Record<string, string>) =>
      c.redirect(`/tools?${new URLSearchParams(params).toString()}`, 302);
    const refuse = (error: ApiError) =>
      back({ mcp_error: error.message, mcp_error_code: error.code });
    const parsed = parseOAuthState(query.state ?? '');
    if (!parsed) return refuse(new ApiError(400, 'mcp:oauth_state_invalid'));
    if (!isUuid(parsed.serverId)) return refuse(serverNotFound());
    const repo = repoFor(deps, user.id);
    const server = await repo.getServer(parsed.serverId);
    if (!server) return refuse(serverNotFound());
    const state = repo.openOAuth(server);
    if (server.auth !== 'oauth' || !isPendingSignIn(state, user.id, parsed.nonce)) {
      return refuse(new ApiError(400, 'mcp:oauth_state_invalid'));
    }
    // Single use: the sign-in is over whatever happens next.
    const { pending: _used, ...rest } = state;
    const current = (await repo.saveOAuth(server.id, rest)) ?? server;

    const failed = async (message: string) => {
      await repo.recordFailure(server.id, { code: 'mcp:authorization_required', message });
      return back({ mcp_error: message });
    };
    if (query.error || !query.code) {
      return failed(
        `Signing in to ${server.name} did not finish${query.error ? ` (${query.error.slice(0, 100)})` : ''}. Try again from Tools.`,
      );
    }
    const outbound = await outboundFor(deps);
    const provider = new StoredMcpOAuthProvider(
      repo,
      current,
      mcpOAuthRedirectUrl(outbound.appUrl),
    );
    try {
      const result = await finishOAuth(provider, {
        serverUrl: current.url,
        authorizationCode: query.code,
        fetchFn: createMcpFetch(outbound),
      });
      if (result !== 'AUTHORIZED') throw new Error('not authorized');
    } catch {
      return failed(`${server.name} did not accept the sign-in. Try signing in again from Tools.`);
    }
    const signedIn = await repo.getServer(server.id);
    if (!signedIn) throw serverNotFound();
    const { failure } = await syncMcpServer(repo, signedIn, outbound);
    if (failure) return back({ mcp_error: `Signed in to ${server.name}, but: ${failure.message}` });
    return back({ mcp_connected: server.id });
  });
