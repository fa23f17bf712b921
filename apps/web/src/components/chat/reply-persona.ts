import type { ChatRow } from '@/lib/chat/chat-rows';

/** The custom AI a conversation talks to, as its replies name it. */
export type ReplyPersona = {
  name: string;
  avatar: string;
  provider: string;
  /** Null: the provider's default model. */
  model: string | null;
};

/**
 * Whether a reply is the persona's. A stored reply records its provider and model, not who
 * answered, so a reply counts as the persona's when those match it (a reply written before the
 * conversation switched to it, by the same model, is shown as its too).
 */
export const isPersonaReply = (row: ChatRow, persona: ReplyPersona | undefined): boolean =>
  persona !== undefined &&
  row.role === 'assistant' &&
  row.provider === persona.provider &&
  (persona.model === null || row.model === null || row.model === persona.model);
