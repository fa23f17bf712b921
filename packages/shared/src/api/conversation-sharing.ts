import { z } from 'zod';
import { messageRoles, messageStatuses, sourceSchema } from './conversations.ts';

// --- Export: GET /rest/v1/conversations/{id}/export?format=markdown|json

export const conversationExportFormats = ['markdown', 'json'] as const;
export type ConversationExportFormat = (typeof conversationExportFormats)[number];

export const exportConversationQuerySchema = z.object({
  format: z.enum(conversationExportFormats).default('markdown'),
});

export const conversationExportMessageSchema = z.object({
  role: z.enum(messageRoles),
  /** As written: markdown for the model's replies. */
  content: z.string(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  /** `interrupted`: cut off, with the text that arrived; `error`: failed (see `error`). */
  status: z.enum(messageStatuses),
  created_at: z.string(),
  sources: z.array(sourceSchema),
  /** Why a reply failed, as the chat showed it; null for a reply that did not fail. */
  error: z.object({ code: z.string().nullable(), message: z.string() }).nullable(),
});
export type ConversationExportMessage = z.infer<typeof conversationExportMessageSchema>;

/**
 * The JSON export, version 1. A later version changes `version`; a reader checks `format` and
 * `version` before anything else. Messages are the conversation's current ones, oldest first:
 * answers replaced by a regenerate are left out.
 */
export const conversationExportSchema = z.object({
  format: z.literal('chorus.conversation'),
  version: z.literal(1),
  exported_at: z.string(),
  conversation: z.object({
    id: z.string(),
    title: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    pinned_at: z.string().nullable(),
    /** Empty when the conversation has none. */
    system_prompt: z.string(),
  }),
  messages: z.array(conversationExportMessageSchema),
});
export type ConversationExport = z.infer<typeof conversationExportSchema>;

// --- Share links: POST|GET|DELETE /rest/v1/conversations/{id}/share, GET /rest/v1/shared/{token}

/** 32 random bytes, base64url without padding. */
export const shareTokenPattern = /^[A-Za-z0-9_-]{43}$/;

export const shareCreatedSchema = z.object({
  /** The page anyone with it can open. Answered once: only a hash of the token is kept. */
  url: z.string(),
  token: z.string(),
  created_at: z.string(),
  /** How many messages the link shows; later ones are not included. */
  message_count: z.number().int(),
});
export type ShareCreated = z.infer<typeof shareCreatedSchema>;

export const shareStatusSchema = z.object({
  active: z.boolean(),
  created_at: z.string().optional(),
  message_count: z.number().int().optional(),
});
export type ShareStatus = z.infer<typeof shareStatusSchema>;

export const sharedMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  /** `interrupted`: the reply was cut off; what arrived is shown. */
  status: z.enum(['complete', 'interrupted']),
  created_at: z.string(),
});
export type SharedMessage = z.infer<typeof sharedMessageSchema>;

/** What a share link shows: the title and the shared messages, nothing about who wrote them. */
export const sharedConversationSchema = z.object({
  title: z.string(),
  shared_at: z.string(),
  messages: z.array(sharedMessageSchema),
});
export type SharedConversation = z.infer<typeof sharedConversationSchema>;
