import { createRoute, z } from '@hono/zod-openapi';
import {
  approveMcpToolSchema,
  callMcpToolSchema,
  createMcpServerSchema,
  mcpServerListSchema,
  mcpServerSchema,
  mcpToolCallResultSchema,
  mcpToolSchema,
  updateMcpServerSchema,
  updateMcpToolSchema,
} from '@chorus/shared/api/tools';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const idParam = z.object({ id: z.string().max(100) });
const toolParams = z.object({ id: z.string().max(100), toolId: z.string().max(100) });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
const signedIn = {
  'x-access': 'user' as const,
  tags: ['MCP servers'],
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};

const unreachable = {
  400: errorResponse('Invalid fields, or an address Chorus does not connect to'),
  409: errorResponse(
    'The server uses OAuth and needs you to sign in (`mcp:authorization_required`)',
  ),
  502: errorResponse('The server could not be reached, or did not answer as an MCP server'),
  504: errorResponse('The server did not answer in time'),
};

export const listMcpServersRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/mcp-servers',
  summary: 'Your MCP servers and their tools, newest first',
  responses: {
    200: jsonContent(mcpServerListSchema, 'Your MCP servers; tokens as hints'),
    401: errorResponse('Not signed in'),
  },
});

export const createMcpServerRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/mcp-servers',
  summary: 'Add a remote MCP server',
  description:
    'A server reached by URL over Streamable HTTP, or the older SSE transport when it does not speak Streamable HTTP, with an optional bearer token (stored encrypted, never sent back) or OAuth (`auth: "oauth"`: the server answers with `last_error.code` `mcp:authorization_required` and an `authorize_url` to open, where the user signs in; the sign-in comes back to `GET /rest/v1/mcp-servers/oauth/callback`). Its tools are read at once and stored turned off; enable them one by one. A server that cannot be reached is saved anyway with `status: "error"` and the reason in `last_error`, so it can be fixed. Never a local process (no stdio).',
  request: json(createMcpServerSchema),
  responses: {
    201: jsonContent(mcpServerSchema, 'The new server, with its tools or the reason it failed'),
    400: errorResponse('Invalid fields, a URL that is not http(s), or a bearer token missing'),
    401: errorResponse('Not signed in'),
    409: errorResponse('As many MCP servers as one may add'),
  },
});

export const getMcpServerRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/mcp-servers/{id}',
  summary: 'One of your MCP servers',
  request: { params: idParam },
  responses: {
    200: jsonContent(mcpServerSchema, 'The server and its tools'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such MCP server of yours'),
  },
});

export const updateMcpServerRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/mcp-servers/{id}',
  summary: 'Change an MCP server',
  description:
    'A token of null (or none) keeps the stored one; an empty token removes it. A new URL, auth or token reads the tools again; a failure to connect is recorded on the server, not answered as an error.',
  request: { params: idParam, ...json(updateMcpServerSchema) },
  responses: {
    200: jsonContent(mcpServerSchema, 'The server'),
    400: errorResponse('Invalid fields, a URL that is not http(s), or a bearer token missing'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such MCP server of yours'),
  },
});

export const deleteMcpServerRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/mcp-servers/{id}',
  summary: 'Remove an MCP server and its tools',
  request: { params: idParam },
  responses: {
    204: { description: 'Removed' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such MCP server of yours'),
  },
});

export const syncMcpServerRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/mcp-servers/{id}/sync',
  summary: 'Read the server’s tools again',
  description:
    'New tools are stored turned off. A tool whose definition (name, description, input schema) hashes differently from the approved one is turned off until the new definition is approved; its `pending` shows the new one. A tool no longer listed is marked removed.',
  request: { params: idParam },
  responses: {
    200: jsonContent(mcpServerSchema, 'The server and its tools'),
    ...unreachable,
    401: errorResponse('Not signed in'),
    404: errorResponse('No such MCP server of yours'),
  },
});

export const updateMcpToolRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/mcp-servers/{id}/tools/{toolId}',
  summary: 'Turn one tool of an MCP server on or off',
  request: { params: toolParams, ...json(updateMcpToolSchema) },
  responses: {
    200: jsonContent(mcpToolSchema, 'The tool'),
    400: errorResponse('Invalid fields'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such MCP server or tool of yours'),
    409: errorResponse('The tool’s definition changed and awaits approval, or it was removed'),
  },
});

export const approveMcpToolRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/mcp-servers/{id}/tools/{toolId}/approve',
  summary: 'Approve a tool’s changed definition',
  description:
    '`hash` is the `hash` of the tool as shown (the pending definition’s). Approving makes it the approved definition; the tool is on again if it was on before the change.',
  request: { params: toolParams, ...json(approveMcpToolSchema) },
  responses: {
    200: jsonContent(mcpToolSchema, 'The tool'),
    400: errorResponse('Invalid fields'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such MCP server or tool of yours'),
    409: errorResponse('Nothing awaits approval, or the definition changed again since shown'),
  },
});

export const callMcpToolRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/mcp-servers/{id}/tools/{toolId}/call',
  summary: 'Try an enabled tool once',
  description:
    'Connects, checks that the server still gives the approved definition, calls the tool with `input` and answers what a model would read. A tool error is an answer (`is_error`), not an HTTP error.',
  request: { params: toolParams, ...json(callMcpToolSchema) },
  responses: {
    200: jsonContent(mcpToolCallResultSchema, 'The tool’s answer'),
    ...unreachable,
    401: errorResponse('Not signed in'),
    404: errorResponse('No such MCP server or tool of yours'),
    409: errorResponse('The tool is off, changed since approved, or removed'),
  },
});

export const mcpOAuthCallbackRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/mcp-servers/oauth/callback',
  summary: 'Where an MCP server’s OAuth sign-in comes back',
  description:
    'Opened by the browser, sent here by the authorization server with `code` and `state`. The `state` is bound to the signed-in user and the server, single use, and expires in 10 minutes. Exchanges the code for tokens (stored encrypted), reads the tools, and redirects to `/tools?mcp_connected={id}`; every refusal (no state, a state expired, used already or not yours: `mcp:oauth_state_invalid`; no such server of yours: `mcp:not_found`) and failure redirects to `/tools?mcp_error=…&mcp_error_code=…` with a readable message.',
  request: {
    query: z.object({
      code: z.string().max(4_000).optional(),
      state: z.string().max(400).optional(),
      error: z.string().max(200).optional(),
      error_description: z.string().max(1_000).optional(),
    }),
  },
  responses: {
    302: { description: 'To /tools, with `mcp_connected`, or `mcp_error` and `mcp_error_code`' },
    400: errorResponse('Invalid query'),
    401: errorResponse('Not signed in'),
  },
});
