import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { conversations } from './chat.ts';
import { timestamps } from './columns.ts';

/**
 * A paused run's instructions, the provider its messages were made with, and the messages (AI SDK
 * `ModelMessage`s, stored as JSON). Every field is optional: the column's default is `[]`, which
 * reads as none of them.
 */
export type AgentRunState = {
  system?: string | undefined;
  provider?: string | undefined;
  messages?: unknown[] | undefined;
};

/** An agent's tool and when a call of it waits for the user (`AgentTool` in the contract). */
export type AgentToolSetting = { tool: string; approval: 'always' | 'once' | 'never' };

/**
 * An agent (issue 18): a custom AI with tools. `version` goes up with every change; each state is
 * kept in `agent_versions`, so any can be restored.
 */
export const agents = pgTable(
  'agents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** `@handle` in a chat: unique per user. */
    handle: text('handle').notNull(),
    description: text('description').notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    instructions: text('instructions').notNull().default(''),
    provider: text('provider').notNull(),
    model: text('model'),
    temperature: real('temperature'),
    max_steps: integer('max_steps').notNull().default(10),
    tools: jsonb('tools').$type<AgentToolSetting[]>().notNull().default([]),
    knowledge_base_ids: uuid('knowledge_base_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    version: integer('version').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    index('agents_user_created_idx').on(t.user_id, t.created_at.desc(), t.id),
    uniqueIndex('agents_user_handle_idx').on(t.user_id, t.handle),
  ],
);

/** Every saved state of an agent, newest highest. */
export const agentVersions = pgTable(
  'agent_versions',
  {
    agent_id: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** The agent's fields after the change (the contract's `AgentVersion['agent']`). */
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agent_id, t.version] })],
);

/**
 * One run of an agent: one reply of a chat, across its pauses for approval. `state` keeps what
 * the model was sent and answered so far, so an approval given after a reload goes on from there.
 */
export const agentRuns = pgTable(
  'agent_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    agent_id: uuid('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    agent_name: text('agent_name').notNull(),
    agent_version: integer('agent_version').notNull(),
    conversation_id: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    /** The reply the run writes. */
    message_id: uuid('message_id').notNull(),
    status: text('status', {
      enum: ['running', 'awaiting_approval', 'complete', 'failed', 'stopped'],
    })
      .notNull()
      .default('running'),
    steps: integer('steps').notNull().default(0),
    input_tokens: integer('input_tokens').notNull().default(0),
    output_tokens: integer('output_tokens').notNull().default(0),
    /** Milliseconds the run has spent running, pauses excluded. */
    elapsed_ms: integer('elapsed_ms').notNull().default(0),
    /**
     * What a paused run goes on from: its instructions and the model messages so far (context,
     * then each step's calls and results); no messages once the run ends.
     */
    state: jsonb('state')
      .$type<AgentRunState>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The instance streaming the run (ADR 018); a gone one's run is failed. */
    instance_id: uuid('instance_id'),
    error_code: text('error_code'),
    error_message: text('error_message'),
    ...timestamps,
  },
  (t) => [
    index('agent_runs_user_status_idx').on(t.user_id, t.status),
    index('agent_runs_message_idx').on(t.message_id),
    index('agent_runs_running_idx')
      .on(t.instance_id)
      .where(sql`${t.status} = 'running'`),
  ],
);

/**
 * A call a user approved once for a conversation (approval policy `once`): it covers later calls
 * of the same tool with the same `shape` (agents/approval-scope.ts). Rows from before shapes
 * existed have an empty shape, which no call has: those tools ask again.
 */
export const agentToolGrants = pgTable(
  'agent_tool_grants',
  {
    conversation_id: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    shape: text('shape').notNull().default(''),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.conversation_id, t.tool, t.shape] })],
);

/**
 * An HTTP tool: an endpoint a user describes. Header values marked secret are sealed with the
 * secret box (like provider keys) and never sent back; `secret_hints` keeps their last four
 * characters for display.
 */
export const httpTools = pgTable(
  'http_tools',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    method: text('method').notNull().default('GET'),
    url_template: text('url_template').notNull(),
    /** Non-secret headers: `[{ name, value }]`. */
    headers: jsonb('headers').$type<{ name: string; value: string }[]>().notNull().default([]),
    /** Secret headers: sealed JSON of `[{ name, value }]`; null for none. */
    secret_headers: text('secret_headers'),
    /** Per secret header, in order: `{ name, hint }`. */
    secret_hints: jsonb('secret_hints')
      .$type<{ name: string; hint: string }[]>()
      .notNull()
      .default([]),
    input_schema: jsonb('input_schema').$type<Record<string, unknown>>().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('http_tools_user_name_idx').on(t.user_id, t.name)],
);

/** A remote MCP server (Streamable HTTP, SSE as fallback); never a process (no stdio). */
export const mcpServers = pgTable(
  'mcp_servers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    auth: text('auth', { enum: ['none', 'bearer', 'oauth'] })
      .notNull()
      .default('none'),
    /** The bearer token, or the OAuth state as JSON, sealed; null for none. */
    token: text('token'),
    token_hint: text('token_hint'),
    transport: text('transport', { enum: ['streamable-http', 'sse'] }),
    status: text('status', { enum: ['ok', 'error'] })
      .notNull()
      .default('ok'),
    error_code: text('error_code'),
    error_message: text('error_message'),
    last_synced_at: timestamp('last_synced_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('mcp_servers_user_idx').on(t.user_id, t.created_at)],
);

/**
 * One tool of an MCP server. `hash` is the hash of the definition the user approved (or saw
 * first); a sync that finds another definition keeps it in `pending_*` and disables the tool
 * until the user approves it.
 */
export const mcpTools = pgTable(
  'mcp_tools',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    server_id: uuid('server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    input_schema: jsonb('input_schema').$type<Record<string, unknown>>().notNull(),
    hash: text('hash').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    /** The server no longer lists it. */
    removed: boolean('removed').notNull().default(false),
    pending_description: text('pending_description'),
    pending_input_schema: jsonb('pending_input_schema').$type<Record<string, unknown>>(),
    pending_hash: text('pending_hash'),
    ...timestamps,
  },
  (t) => [uniqueIndex('mcp_tools_server_name_idx').on(t.server_id, t.name)],
);
