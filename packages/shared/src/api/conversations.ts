import { z } from 'zod';
import { messageAgentRunSchema, storedToolCallSchema } from './agent-runs.ts';
import { messagePageSize } from '../limits.ts';
import { providerIdSchema } from './keys.ts';

export const conversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** When it was pinned; pinned conversations head the list, most recently pinned first. */
  pinned_at: z.string().nullable(),
  /** Instructions the model gets before every message of this conversation; empty for none. */
  system_prompt: z.string(),
  /** Knowledge bases every reply of this conversation searches and cites; empty for none. */
  knowledge_base_ids: z.array(z.string()),
  /** The custom AI this conversation talks to (issue 18); null for a plain model. */
  custom_ai_id: z.string().nullable(),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const listConversationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Opaque; the `next_cursor` of the previous page. */
  cursor: z.string().max(200).optional(),
  search: z.string().trim().max(200).optional(),
});

export const conversationPageSchema = z.object({
  conversations: z.array(conversationSchema),
  next_cursor: z.string().nullable(),
});
export type ConversationPage = z.infer<typeof conversationPageSchema>;

/** Longest per-conversation system prompt, in characters. */
export const systemPromptMaxLength = 20_000;
const systemPromptSchema = z
  .string()
  .max(systemPromptMaxLength, 'A system prompt is at most 20,000 characters');

export const createConversationSchema = z.object({
  title: z.string().max(200, 'A title is at most 200 characters').optional(),
  system_prompt: systemPromptSchema.optional(),
});

export const renameConversationSchema = z.object({
  title: z.string().max(200, 'A title is at most 200 characters'),
});

/** `PATCH /rest/v1/conversations/{id}`: rename, pin or unpin, set the system prompt. */
export const updateConversationSchema = z
  .object({
    title: z.string().max(200, 'A title is at most 200 characters').optional(),
    pinned: z.boolean().optional(),
    system_prompt: systemPromptSchema.optional(),
    /** Your knowledge bases the replies search and cite (at most 10); empty for none. */
    knowledge_base_ids: z
      .array(z.uuid('Not a knowledge base id'))
      .max(10, 'Attach at most 10 knowledge bases to a conversation')
      .transform((ids) => [...new Set(ids)])
      .optional(),
    /** One of your custom AIs to talk to, or null for a plain model. */
    custom_ai_id: z.uuid('Not a custom AI id').nullable().optional(),
  })
  .refine(
    (body) =>
      body.title !== undefined ||
      body.pinned !== undefined ||
      body.system_prompt !== undefined ||
      body.knowledge_base_ids !== undefined ||
      body.custom_ai_id !== undefined,
    { message: 'Send a title, pinned, system_prompt, knowledge_base_ids or custom_ai_id' },
  );
export type UpdateConversation = z.infer<typeof updateConversationSchema>;

/** A citation: a web page (its URL), or a passage of a knowledge-base document. */
export const sourceSchema = z.object({
  /** Empty for a document that has no link of its own. */
  url: z.string(),
  title: z.string().optional(),
  /** The passage the answer drew on. */
  snippet: z.string().max(2_000).optional(),
  /** The knowledge-base document the passage comes from. */
  document_name: z.string().max(500).optional(),
  /** A knowledge-base passage: its document, chunk and place, and its search score. */
  document_id: z.string().max(100).optional(),
  chunk_id: z.string().max(100).optional(),
  knowledge_base_id: z.string().max(100).optional(),
  page: z.number().int().nullable().optional(),
  heading_path: z.array(z.string().max(500)).max(20).optional(),
  score: z.number().optional(),
  /** The number the answer cites it by: [1], [2], … */
  index: z.number().int().optional(),
});
export type Source = z.infer<typeof sourceSchema>;

/** A file sent with a message: stored with the conversation, deleted with it. */
export const messageAttachmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
});
export type MessageAttachment = z.infer<typeof messageAttachmentSchema>;

export const messageRoles = ['user', 'assistant', 'system'] as const;
export const messageStatuses = ['complete', 'streaming', 'interrupted', 'error'] as const;

export const messageSchema = z.object({
  id: z.string(),
  conversation_id: z.string(),
  user_id: z.string(),
  content: z.string(),
  role: z.enum(messageRoles),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  reply_to_id: z.string().nullable(),
  sources: z.array(sourceSchema),
  /** Files sent with a user message (chat attachments); empty for none. */
  attachments: z.array(messageAttachmentSchema),
  /** `interrupted`: stopped, failed or cut off by a restart, with the text received so far. */
  status: z.enum(messageStatuses),
  /** Why a reply failed or was cut off, kept with it; null when it did not (or was stopped). */
  error: z.object({ code: z.string().nullable(), message: z.string() }).nullable(),
  /**
   * An answer regenerated at least once: its place among the versions (1-based) and every
   * version's id, oldest first. Null for the rest.
   */
  version: z.object({ index: z.number().int(), ids: z.array(z.string()) }).nullable(),
  /** An agent's reply (issue 18): the tools it called, in order, and where each stands. */
  tool_calls: z.array(storedToolCallSchema).optional(),
  /** An agent's reply: which agent, and where its run stands (waiting for approval, say). */
  agent_run: messageAgentRunSchema.nullable().optional(),
  created_at: z.string(),
});
export type Message = z.infer<typeof messageSchema>;

export const listMessagesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(messagePageSize).default(messagePageSize),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});

/** `GET /rest/v1/conversations/{id}/messages/latest`: newest first, a page at a time. */
export const latestMessagesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(messagePageSize).default(messagePageSize),
  /** The `older_cursor` of the page already shown: answers the page written before it. */
  before: z.string().max(100).optional(),
});

export const messagePageSchema = z.object({
  /** Oldest first, as the chat shows them. */
  messages: z.array(messageSchema),
  /** Pass as `before` for the page written before this one; null at the conversation's start. */
  older_cursor: z.string().nullable(),
  /** The conversation's system prompt (empty for none), so the chat needs no other request. */
  system_prompt: z.string().optional(),
  /** Its knowledge bases and custom AI, for the same reason (a conversation not in the list). */
  knowledge_base_ids: z.array(z.string()).optional(),
  custom_ai_id: z.string().nullable().optional(),
});
export type MessagePage = z.infer<typeof messagePageSchema>;

export const createMessageSchema = z.object({
  content: z.string().max(200_000, 'A message is at most 200,000 characters'),
  role: z.enum(messageRoles),
  provider: providerIdSchema.nullable().optional(),
  reply_to_id: z.uuid().nullable().optional(),
  sources: z.array(sourceSchema).max(100).default([]),
});

/**
 * `POST /functions/v1/chat`: the server holds the history. The client sends the new user text
 * (or `regenerate` to answer the last user message again) and the model settings.
 */
export const chatRequestSchema = z
  .object({
    conversation_id: z.uuid(),
    provider: providerIdSchema,
    model: z.string().max(200).optional(),
    text: z.string().max(200_000, 'A message is at most 200,000 characters').optional(),
    regenerate: z.boolean().optional(),
    /** Edit-and-resend: this user message and everything after it are replaced by `text`. */
    edit_of: z.uuid().optional(),
    /**
     * The id to store the new user message under, made by the client so that a send retried
     * after a lost answer is recognised, never stored twice.
     */
    message_id: z.uuid().optional(),
    /**
     * Files uploaded to `/storage/v1/files` (purpose `attachment`) to send with the new message:
     * text and documents are read into its context, images go to providers that accept them.
     */
    attachment_ids: z
      .array(z.uuid('Not a file id'))
      .max(10, 'Send at most 10 files with one message')
      .optional(),
    /**
     * One of your custom AIs (issue 18): its provider, model, instructions, parameters and
     * knowledge bases answer, on your keys and quota; `provider` and `model` are then ignored.
     */
    custom_ai_id: z.uuid('Not a custom AI id').optional(),
    /**
     * One of your agents (issue 18) answers this turn with its tools, on your keys and quota. A
     * message starting with `@handle` names an agent the same way.
     */
    agent_id: z.uuid('Not an agent id').optional(),
    /** The saved prompt the text was made from (chosen with `/`): its use count goes up. */
    prompt_id: z.uuid().optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().min(0).max(1).optional(),
    max_tokens: z.number().int().min(1).max(200_000).optional(),
  })
  .refine((r) => r.regenerate || (r.text ?? '').trim() !== '', {
    message: 'Write a message first',
    path: ['text'],
  });
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** Metadata on the streamed assistant message, so the client knows the stored rows. */
export const chatMessageMetadataSchema = z.object({
  user_message_id: z.string().optional(),
  assistant_message_id: z.string().optional(),
  provider: z.string().optional(),
  model: z.string().optional(),
  /** An agent's turn: its run (approvals answer it) and the agent's name. */
  agent_run_id: z.string().optional(),
  agent_name: z.string().optional(),
  /**
   * Of each tool the agent asks "once per conversation": what approving a call of it also
   * covers, in words (a stored call carries its own as `approval_scope`).
   */
  approval_scopes: z.record(z.string(), z.string()).optional(),
});
export type ChatMessageMetadata = z.infer<typeof chatMessageMetadataSchema>;

export const openRouterModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  context_length: z.number().nullable().optional(),
});
export const openRouterModelsSchema = z.object({ models: z.array(openRouterModelSchema) });
export type OpenRouterModel = z.infer<typeof openRouterModelSchema>;

export const aiProxyRequestSchema = z.object({
  provider: providerIdSchema,
  apiKey: z.string().max(500).optional(),
  model: z.string().max(200).optional(),
  messages: z
    .array(z.object({ role: z.enum(messageRoles), content: z.string().max(200_000) }))
    .min(1, 'Send at least one message')
    .max(500),
  /** Milliseconds; at most 2 minutes. */
  timeout: z.number().int().min(1_000).max(120_000).default(20_000),
});
export const aiProxyResponseSchema = z.object({ response: z.string() });
