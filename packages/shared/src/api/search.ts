import { z } from 'zod';
import { messageSearch } from '../message-search.ts';
import { messageRoles } from './conversations.ts';

/** `GET /rest/v1/messages/search?q=&limit=`: the signed-in user's messages that hold the words. */
export const messageSearchQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'Type a word to search for')
    .max(
      messageSearch.maxQueryLength,
      `A search is at most ${messageSearch.maxQueryLength} characters`,
    ),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(messageSearch.maxLimit)
    .default(messageSearch.defaultLimit),
});

export const messageSearchHitSchema = z.object({
  message_id: z.string(),
  conversation_id: z.string(),
  conversation_title: z.string(),
  role: z.enum(messageRoles),
  /**
   * The passage around the matched words; each match sits between `messageSearch.markStart` and
   * `markEnd`.
   */
  snippet: z.string(),
  created_at: z.string(),
});
export type MessageSearchHit = z.infer<typeof messageSearchHitSchema>;

export const messageSearchResultSchema = z.object({
  /** Newest first. */
  hits: z.array(messageSearchHitSchema),
});
export type MessageSearchResult = z.infer<typeof messageSearchResultSchema>;
