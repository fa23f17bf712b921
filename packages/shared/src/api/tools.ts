import { z } from 'zod';

/**
 * Tools (issue 18): the built-in ones, HTTP tools a user describes, and the tools of remote MCP
 * servers. An agent names a tool by its key: `builtin:<name>`, `http:<id>` or `mcp:<id>` (the
 * id of one tool of one MCP server).
 */
export const builtinTools = [
  {
    key: 'builtin:calculator',
    name: 'calculator',
    title: 'Calculator',
    description: 'Works out arithmetic, units and functions with an expression parser.',
  },
  {
    key: 'builtin:current_datetime',
    name: 'current_datetime',
    title: 'Current date and time',
    description: 'The date and time now, in a time zone.',
  },
  {
    key: 'builtin:web_fetch',
    name: 'web_fetch',
    title: 'Web fetch',
    description: 'Reads a public web page as Markdown.',
  },
  {
    key: 'builtin:knowledge_search',
    name: 'knowledge_search',
    title: 'Knowledge search',
    description: "Searches the agent's knowledge bases and answers with passages to cite.",
  },
] as const;

export type BuiltinToolKey = (typeof builtinTools)[number]['key'];

export const toolKeyPattern = /^(builtin:[a-z_]+|http:[0-9a-f-]{36}|mcp:[0-9a-f-]{36})$/;

export const toolKeySchema = z
  .string({ error: 'A tool must be named by its key' })
  .regex(toolKeyPattern, 'Not a tool key (builtin:…, http:… or mcp:…)');

export const toolLimits = {
  /** HTTP tools one user may keep. */
  perUser: 100,
  /** MCP servers one user may add. */
  mcpServersPerUser: 20,
  name: 64,
  description: 1_000,
  urlTemplate: 2_048,
  headers: 20,
  headerValue: 4_000,
  /** The JSON Schema of a tool's input, as JSON text. */
  schemaChars: 20_000,
  /** What a call hands back to the model (characters). */
  resultChars: 20_000,
  timeoutMs: 15_000,
  maxBytes: 1024 * 1024,
} as const;

/** A model calls a tool by this name: letters, digits and underscores, as providers accept. */
export const toolNamePattern = /^[a-zA-Z][a-zA-Z0-9_]{0,63}$/;

export const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const jsonObject = z.record(z.string(), z.unknown());

/**
 * The tool's input, as a JSON Schema object (`type: "object"` with `properties`). Its values fill
 * the URL template's `{name}` placeholders (URL-encoded) and, for a method with a body, the rest
 * go as the JSON body.
 */
export const toolInputSchemaSchema = jsonObject
  .refine((s) => s.type === 'object', {
    message: 'The input schema must be a JSON Schema with "type": "object"',
  })
  .refine((s) => JSON.stringify(s).length <= toolLimits.schemaChars, {
    message: `The input schema is at most ${toolLimits.schemaChars.toLocaleString('en')} characters of JSON`,
  });

const headerName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'A header name is letters, digits and dashes');

/** A header as sent when saving: a secret one is stored encrypted and never sent back. */
export const httpToolHeaderInputSchema = z.object({
  name: headerName,
  /** Null for a secret header: keep the value stored. */
  value: z
    .string()
    .max(toolLimits.headerValue, `A header value is at most ${toolLimits.headerValue} characters`)
    .nullable(),
  secret: z.boolean().default(false),
});

/** A header as read back: a secret one shows its last four characters only. */
export const httpToolHeaderSchema = z.object({
  name: z.string(),
  /** The value; for a secret header, a hint like `••••abcd`. */
  value: z.string(),
  secret: z.boolean(),
});

export const httpToolSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  description: z.string(),
  method: z.enum(httpMethods),
  url_template: z.string(),
  headers: z.array(httpToolHeaderSchema),
  input_schema: jsonObject,
  created_at: z.string(),
  updated_at: z.string(),
});
export type HttpTool = z.infer<typeof httpToolSchema>;

export const httpToolListSchema = z.object({ tools: z.array(httpToolSchema) });

const httpToolFields = {
  name: z
    .string({ error: 'The name is missing' })
    .trim()
    .regex(
      toolNamePattern,
      'A tool name starts with a letter and has only letters, digits and underscores (at most 64)',
    ),
  description: z
    .string()
    .trim()
    .max(toolLimits.description, `The description is at most ${toolLimits.description} characters`),
  method: z.enum(httpMethods, { error: 'The method is one of GET, POST, PUT, PATCH and DELETE' }),
  url_template: z
    .string({ error: 'The URL is missing' })
    .trim()
    .min(1, 'Give the URL to call')
    .max(toolLimits.urlTemplate, `The URL is at most ${toolLimits.urlTemplate} characters`),
  headers: z
    .array(httpToolHeaderInputSchema)
    .max(toolLimits.headers, `At most ${toolLimits.headers} headers`),
  input_schema: toolInputSchemaSchema,
};

export const createHttpToolSchema = z.object({
  ...httpToolFields,
  description: httpToolFields.description.default(''),
  method: httpToolFields.method.default('GET'),
  headers: httpToolFields.headers.default([]),
  input_schema: httpToolFields.input_schema.default({ type: 'object', properties: {} }),
});
export type CreateHttpTool = z.input<typeof createHttpToolSchema>;

export const updateHttpToolSchema = z
  .object(httpToolFields)
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'Send at least one field to change' });
export type UpdateHttpTool = z.input<typeof updateHttpToolSchema>;

/** `POST /rest/v1/tools/{id}/test`: one call with this input. */
export const testHttpToolSchema = z.object({ input: jsonObject.default({}) });

/** What a test call sent and got; secret header values are masked. */
export const httpToolTestResultSchema = z.object({
  request: z.object({
    method: z.string(),
    url: z.string(),
    headers: z.array(httpToolHeaderSchema),
    body: z.string().nullable(),
  }),
  response: z
    .object({
      status: z.number().int(),
      headers: z.record(z.string(), z.string()),
      body: z.string(),
      truncated: z.boolean(),
    })
    .nullable(),
  /** Why there is no response: the address refused, a timeout, a connection failure. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  duration_ms: z.number(),
});
export type HttpToolTestResult = z.infer<typeof httpToolTestResultSchema>;

// ---------------------------------------------------------------------------------------------
// Remote MCP servers

export const mcpAuthTypes = ['none', 'bearer', 'oauth'] as const;

/**
 * One tool of an MCP server. `approved`: its definition is the one the user approved (or saw
 * first). `changed`: the server now describes it differently; it is disabled until the user
 * approves the new definition, shown against the old one.
 */
export const mcpToolSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  description: z.string(),
  input_schema: jsonObject,
  enabled: z.boolean(),
  state: z.enum(['approved', 'changed', 'removed']),
  /** The definition the server gives now, when it differs from the approved one. */
  pending: z.object({ description: z.string(), input_schema: jsonObject }).nullable(),
  hash: z.string(),
});
export type McpTool = z.infer<typeof mcpToolSchema>;

export const mcpServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  auth: z.enum(mcpAuthTypes),
  /** `••••abcd` for a stored bearer token, `OAuth…` for OAuth; null for none. */
  token_hint: z.string().nullable(),
  /** How the server answered last: Streamable HTTP, or the older SSE transport. */
  transport: z.enum(['streamable-http', 'sse']).nullable(),
  status: z.enum(['ok', 'error']),
  last_error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /**
   * With `auth: "oauth"` and `last_error.code` `mcp:authorization_required`: where the user signs
   * in to the server (open it in a new tab); null otherwise.
   */
  authorize_url: z.string().nullable(),
  last_synced_at: z.string().nullable(),
  tools: z.array(mcpToolSchema),
  created_at: z.string(),
  updated_at: z.string(),
});
export type McpServer = z.infer<typeof mcpServerSchema>;

export const mcpServerListSchema = z.object({ servers: z.array(mcpServerSchema) });

const mcpFields = {
  name: z
    .string({ error: 'The name is missing' })
    .trim()
    .min(1, 'Give the server a name')
    .max(80, 'The name is at most 80 characters'),
  url: z
    .string({ error: 'The URL is missing' })
    .trim()
    .min(1, 'Give the server’s URL')
    .max(2_048, 'The URL is at most 2,048 characters'),
  auth: z.enum(mcpAuthTypes).default('none'),
  /** The bearer token; null or absent keeps the stored one, '' removes it. */
  token: z.string().max(4_000, 'The token is at most 4,000 characters').nullable().optional(),
};

export const createMcpServerSchema = z.object(mcpFields);
export type CreateMcpServer = z.input<typeof createMcpServerSchema>;

export const updateMcpServerSchema = z
  .object({ ...mcpFields, auth: z.enum(mcpAuthTypes) })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'Send at least one field to change' });
export type UpdateMcpServer = z.input<typeof updateMcpServerSchema>;

export const updateMcpToolSchema = z.object({ enabled: z.boolean() });

/** `POST /rest/v1/mcp-servers/{id}/tools/{toolId}/approve`: the definition the user saw. */
export const approveMcpToolSchema = z.object({ hash: z.string().min(1).max(200) });

/** `POST /rest/v1/mcp-servers/{id}/tools/{toolId}/call`: try the tool once. */
export const callMcpToolSchema = z.object({ input: jsonObject.default({}) });

export const mcpToolCallResultSchema = z.object({
  /** The tool's answer as the model would read it (text parts joined). */
  output: z.unknown(),
  is_error: z.boolean(),
  duration_ms: z.number(),
});
