import { z } from 'zod';

/**
 * The embedded agent chat (issue 21): a widget puts one of a user's agents or custom AIs on other
 * websites. A tiny loader (`/embed.js`) draws a button and opens an iframe from the widget's own
 * entry (`/embed/{public_id}`), which talks to `/widget/v1/{public_id}/…` with a server-minted
 * visitor session — never an app session cookie. `Origin` is a browser courtesy; the allow-list
 * is enforced by the browser through `frame-ancestors`, and optionally by signed visitor tokens.
 */
export const widgetLimits = {
  name: 80,
  title: 60,
  greeting: 500,
  origins: 20,
  origin: 200,
  /** Widgets one user may keep. */
  perUser: 20,
  message: 4_000,
  /** Defaults of a new widget. */
  defaultMessagesPerVisitorHour: 20,
  defaultDailyTokens: 200_000,
  defaultMonthlyTokens: 2_000_000,
  defaultMaxReplyTokens: 800,
  maxMessagesPerVisitorHour: 1_000,
  maxTokenBudget: 1_000_000_000,
  maxReplyTokens: 8_000,
  /** Turns of a visitor conversation sent to the model (the rest is kept, not sent). */
  historyTurns: 20,
  /** Visitor sessions live this long without use. */
  sessionDays: 30,
  /** Signed visitor tokens may not be valid for longer than this. */
  visitorTokenMaxHours: 24,
  /** Per IP, over all widgets: messages per minute. */
  ipMessagesPerMinute: 30,
  /** Per widget, over all its visitors: messages per minute. */
  widgetMessagesPerMinute: 120,
  /** A block holds this long against new anonymous visitors from the blocked one's network. */
  blockedAddressHours: 24,
  /** A cited passage reaches visitors as its document's name and a quote at most this long. */
  sourceQuoteChars: 200,
} as const;

/** `wgt_` and 20 letters and digits: public, in page source; it grants nothing by itself. */
export const widgetPublicIdPattern = /^wgt_[A-Za-z0-9]{20}$/;

export const widgetPositions = ['bottom-right', 'bottom-left'] as const;

const text = (label: string, max: number) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${label} is missing` : `${label} must be text`,
    })
    .trim()
    .max(max, `${label} is at most ${max.toLocaleString('en-US')} characters`);

/**
 * An allowed origin: scheme, host and port only (`https://example.com`,
 * `http://localhost:5173`). No paths, no wildcards other than a leading `*.` subdomain.
 */
export const originSchema = text('An origin', widgetLimits.origin).regex(
  /^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i,
  'An origin is a scheme and host, with a port if any — like https://example.com or http://localhost:5173 — without a path',
);

export const widgetTargetSchema = z
  .object({
    agent_id: z.uuid().nullable().default(null),
    custom_ai_id: z.uuid().nullable().default(null),
  })
  .refine((t) => (t.agent_id === null) !== (t.custom_ai_id === null), {
    message: 'Pick one agent or one custom AI for the widget',
  });

export const widgetAppearanceSchema = z.object({
  title: text('The title', widgetLimits.title).min(1, 'The title cannot be empty'),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'The colour is a hex colour like #4f46e5')
    .default('#4f46e5'),
  greeting: text('The greeting', widgetLimits.greeting).default(''),
  position: z.enum(widgetPositions).default('bottom-right'),
});
export type WidgetAppearance = z.infer<typeof widgetAppearanceSchema>;

export const widgetBudgetSchema = z
  .object({
    messages_per_visitor_hour: z
      .number()
      .int()
      .min(1)
      .max(widgetLimits.maxMessagesPerVisitorHour)
      .default(widgetLimits.defaultMessagesPerVisitorHour),
    daily_tokens: z
      .number()
      .int()
      .min(1)
      .max(widgetLimits.maxTokenBudget)
      .default(widgetLimits.defaultDailyTokens),
    monthly_tokens: z
      .number()
      .int()
      .min(1)
      .max(widgetLimits.maxTokenBudget)
      .default(widgetLimits.defaultMonthlyTokens),
    max_reply_tokens: z
      .number()
      .int()
      .min(16)
      .max(widgetLimits.maxReplyTokens)
      .default(widgetLimits.defaultMaxReplyTokens),
  })
  .refine((b) => b.daily_tokens <= b.monthly_tokens, {
    message: 'The daily budget cannot be above the monthly one',
  });
export type WidgetBudget = z.infer<typeof widgetBudgetSchema>;

/**
 * Tools that call out with the owner's credentials (an HTTP tool's headers, an MCP server's
 * token): a widget offers one to visitors only with a rule saying which arguments a visitor's
 * conversation may set.
 */
export const toolNeedsArgumentRule = (key: string) =>
  key.startsWith('http:') || key.startsWith('mcp:');

/**
 * Which arguments of such a tool a visitor's conversation may set (the model fills them from what
 * visitors write), and the owner's fixed values of others. An argument in neither is left out.
 */
export const widgetToolArgumentRuleSchema = z
  .object({
    visitor: z.array(z.string().min(1).max(64)).max(50).default([]),
    /** Values as JSON gives them: text, numbers, true or false, lists and objects. */
    fixed: z.record(z.string().min(1).max(64), z.unknown()).default({}),
  })
  .strict();
export type WidgetToolArgumentRule = z.infer<typeof widgetToolArgumentRuleSchema>;

export const widgetToolArgumentsSchema = z
  .record(z.string().max(100), widgetToolArgumentRuleSchema)
  .refine((rules) => JSON.stringify(rules).length <= 20_000, {
    message: 'The tool arguments are at most 20 kB of JSON',
  });
export type WidgetToolArguments = z.infer<typeof widgetToolArgumentsSchema>;

const widgetFields = {
  name: text('The name', widgetLimits.name).min(1, 'The name cannot be empty'),
  /** Empty means no site may embed it — never all. */
  allowed_origins: z
    .array(originSchema)
    .max(widgetLimits.origins, 'A widget has at most 20 allowed origins'),
  appearance: widgetAppearanceSchema,
  budget: widgetBudgetSchema,
  /** Visitors must come with a token signed by the host site's server. */
  require_signed_visitors: z.boolean(),
  /**
   * Names of the agent's tools visitors' replies may use. Tools that need approval are never
   * offered to visitors, whatever this says.
   */
  allowed_tools: z.array(z.string().max(100)).max(50),
  /**
   * For each allowed HTTP or MCP tool (`toolNeedsArgumentRule`): which arguments visitors may
   * set and the owner's fixed values. Such a tool without a rule is refused.
   */
  tool_arguments: widgetToolArgumentsSchema,
  /**
   * Whether visitors see which of the owner's documents a reply drew on: each document's name and
   * a quote of at most `widgetLimits.sourceQuoteChars` characters. Off: no sources at all.
   */
  show_sources: z.boolean(),
  enabled: z.boolean(),
};

export const createWidgetSchema = z
  .object({
    ...widgetFields,
    allowed_origins: widgetFields.allowed_origins.default([]),
    budget: widgetFields.budget.default({
      messages_per_visitor_hour: widgetLimits.defaultMessagesPerVisitorHour,
      daily_tokens: widgetLimits.defaultDailyTokens,
      monthly_tokens: widgetLimits.defaultMonthlyTokens,
      max_reply_tokens: widgetLimits.defaultMaxReplyTokens,
    }),
    require_signed_visitors: widgetFields.require_signed_visitors.default(false),
    allowed_tools: widgetFields.allowed_tools.default([]),
    tool_arguments: widgetFields.tool_arguments.default({}),
    show_sources: widgetFields.show_sources.default(true),
    enabled: widgetFields.enabled.default(true),
    target: widgetTargetSchema,
  })
  .strict();
export type CreateWidget = z.infer<typeof createWidgetSchema>;

export const updateWidgetSchema = z
  .object({ ...widgetFields, target: widgetTargetSchema })
  .partial()
  .strict();
export type UpdateWidget = z.infer<typeof updateWidgetSchema>;

export const widgetSchema = z.object({
  id: z.string(),
  public_id: z.string(),
  name: z.string(),
  target: z.object({
    kind: z.enum(['agent', 'custom_ai']),
    id: z.string(),
    /** Null when the agent or custom AI was deleted since: the widget answers 'unavailable'. */
    name: z.string().nullable(),
  }),
  allowed_origins: z.array(z.string()),
  appearance: z.object({
    title: z.string(),
    color: z.string(),
    greeting: z.string(),
    position: z.enum(widgetPositions),
  }),
  budget: z.object({
    messages_per_visitor_hour: z.number(),
    daily_tokens: z.number(),
    monthly_tokens: z.number(),
    max_reply_tokens: z.number(),
  }),
  require_signed_visitors: z.boolean(),
  allowed_tools: z.array(z.string()),
  tool_arguments: z.record(
    z.string(),
    z.object({ visitor: z.array(z.string()), fixed: z.record(z.string(), z.unknown()) }),
  ),
  show_sources: z.boolean(),
  enabled: z.boolean(),
  /** The first characters of the signing secret; the secret itself is shown once. */
  secret_hint: z.string(),
  usage: z.object({
    tokens_today: z.number(),
    tokens_this_month: z.number(),
    messages_today: z.number(),
  }),
  /** The `<script>` tag to paste. */
  snippet: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Widget = z.infer<typeof widgetSchema>;
export const widgetListSchema = z.object({ items: z.array(widgetSchema) });

/** Creating a widget or rotating its secret: the only times the whole secret is shown. */
export const widgetWithSecretSchema = widgetSchema.extend({ secret: z.string() });
export type WidgetWithSecret = z.infer<typeof widgetWithSecretSchema>;

// ---------------------------------------------------------------------------------------------
// Owner's view: visitors, sessions, usage

export const widgetSessionsQuerySchema = z.object({
  /** Words to look for in the conversations' messages. */
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
  cursor: z.string().max(200).optional(),
});

export const widgetVisitorSchema = z.object({
  id: z.string(),
  /** The host site's visitor id for signed visitors; null for anonymous ones. */
  external_id: z.string().nullable(),
  name: z.string().nullable(),
  signed: z.boolean(),
  blocked: z.boolean(),
  created_at: z.string(),
  last_seen_at: z.string(),
});
export type WidgetVisitor = z.infer<typeof widgetVisitorSchema>;

export const widgetConversationBriefSchema = z.object({
  id: z.string(),
  visitor: widgetVisitorSchema,
  title: z.string(),
  message_count: z.number(),
  /** A line of the matching message when searching, else of the last one. */
  snippet: z.string(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WidgetConversationBrief = z.infer<typeof widgetConversationBriefSchema>;
export const widgetSessionListSchema = z.object({
  items: z.array(widgetConversationBriefSchema),
  next_cursor: z.string().nullable(),
});

export const widgetSourceSchema = z.object({
  document: z.string(),
  position: z.string().nullable(),
  text: z.string(),
});

export const widgetMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** Knowledge the reply used (issue 17), for citations. */
  sources: z.array(widgetSourceSchema),
  /** `failed`: the reply did not finish; `content` says why to the visitor. */
  status: z.enum(['done', 'failed', 'streaming']),
  created_at: z.string(),
});
export type WidgetMessage = z.infer<typeof widgetMessageSchema>;
export const widgetConversationSchema = widgetConversationBriefSchema.extend({
  messages: z.array(widgetMessageSchema),
});

export const widgetUsageQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(90).default(30),
});
export const widgetUsageSchema = z.object({
  days: z.array(
    z.object({
      day: z.string(),
      messages: z.number(),
      input_tokens: z.number(),
      output_tokens: z.number(),
      visitors: z.number(),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------
// Public widget API (`/widget/v1/{public_id}/…`), used by the iframe only

/** What the loader and the iframe need to draw the widget. */
export const publicWidgetConfigSchema = z.object({
  public_id: z.string(),
  title: z.string(),
  color: z.string(),
  greeting: z.string(),
  position: z.enum(widgetPositions),
  require_signed_visitors: z.boolean(),
});
export type PublicWidgetConfig = z.infer<typeof publicWidgetConfigSchema>;

/**
 * Start or resume a visitor session. `session` is what the iframe stored from an earlier answer;
 * `visitor_token` a JWT (HS256) the host site's server signed with the widget's secret:
 * `{ widget: public_id, visitor_id, name?, exp }`. The server mints the session; the client never
 * picks an id.
 */
export const startVisitorSessionSchema = z
  .object({
    session: z.string().max(200).optional(),
    visitor_token: z.string().max(4_000).optional(),
  })
  .strict();

export const visitorSessionSchema = z.object({
  /** Bearer for the iframe's later calls; stored by the iframe. */
  session: z.string(),
  visitor: z.object({ name: z.string().nullable(), signed: z.boolean() }),
  config: publicWidgetConfigSchema,
  /** The visitor's conversations, newest first (a signed visitor's from any device). */
  conversations: z.array(z.object({ id: z.string(), title: z.string(), updated_at: z.string() })),
});
export type VisitorSession = z.infer<typeof visitorSessionSchema>;

export const widgetChatSchema = z
  .object({
    conversation_id: z.uuid().nullable().default(null),
    message: text('The message', widgetLimits.message).min(1, 'Write a message first'),
  })
  .strict();
export type WidgetChat = z.infer<typeof widgetChatSchema>;

/**
 * The reply streams as server-sent events, one JSON object per `data:` line:
 * `{type:'start', conversation_id, message_id}`, `{type:'delta', text}`,
 * `{type:'sources', sources}`, `{type:'done'}`, or `{type:'error', code, message}` — the message
 * is shown to the visitor as it is (budget exhausted: the polite 'unavailable' message).
 */
export type WidgetStreamEvent =
  | { type: 'start'; conversation_id: string; message_id: string }
  | { type: 'delta'; text: string }
  | { type: 'sources'; sources: z.infer<typeof widgetSourceSchema>[] }
  | { type: 'done' }
  | { type: 'error'; code: string; message: string };

/** What a widget's owner reads in the editor and the sessions list. */
export const widgetOwnerMessages = {
  blockBody: (visitor: string, widget: string) =>
    `${visitor} can no longer chat with “${widget}”: the widget tells them so. Their conversations stay here, and you can unblock them.`,
  toolArgumentsTitle: 'What visitors may set',
  toolArgumentsWarning:
    'This tool calls out with your credentials (its secret headers, or your MCP server’s token). The model fills the arguments you let visitors set from what they write, so a visitor chooses them; fix the others here. Arguments in neither are left out.',
  toolArgumentsVisitorSet: (names: string) =>
    `Visitors choose: ${names}. Leave only arguments that are safe in anyone’s hands.`,
  showSources: 'Show sources to visitors',
  showSourcesHint: (chars: number) =>
    `Under a reply that used your knowledge bases, visitors see each document’s name and a quote of at most ${chars} characters. Off: they see no sources at all.`,
  blockAddressNote: (hours: number) =>
    `For ${hours} hours nobody new can start an anonymous chat from the network address this visitor last used, so clearing their browser does not undo the block. Others sharing that address (an office, a school, a mobile network) are turned away too for that time; people already chatting and signed visitors are not.`,
} as const;

/** What visitors read when the widget is over its budget, switched off or removed. */
export const widgetUnavailableMessage =
  'This assistant is unavailable right now. Please try again later.';
