import type { Message, Source } from '@chorus/shared/api/conversations';
import type { MessageRow } from '../db/repositories/messages.ts';

/** A stored message as the API shows it (spec §3 field names). */
export const toMessage = (row: MessageRow): Message => ({
  id: row.id,
  conversation_id: row.conversation_id,
  user_id: row.user_id,
  content: row.content,
  role: row.role,
  provider: row.provider,
  model: row.model,
  reply_to_id: row.reply_to_id,
  sources: row.sources as Source[],
  status: row.status,
  created_at: row.created_at.toISOString(),
});
