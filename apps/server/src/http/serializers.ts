import type { StoredToolCall } from '@chorus/shared/api/agents';
import type { Message, MessageAttachment, Source } from '@chorus/shared/api/conversations';
import type { MessageRow, MessageWithVersions } from '../db/repositories/messages.ts';

/** A stored message as the API shows it (spec §3 field names). */
export const toMessage = (row: MessageRow | MessageWithVersions): Message => {
  const ids = 'version_ids' in row ? row.version_ids : null;
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    user_id: row.user_id,
    content: row.content,
    role: row.role,
    provider: row.provider,
    model: row.model,
    reply_to_id: row.reply_to_id,
    sources: row.sources as Source[],
    attachments: row.attachments as MessageAttachment[],
    status: row.status,
    error: row.error_message ? { code: row.error_code, message: row.error_message } : null,
    version: ids && ids.length > 1 ? { index: ids.indexOf(row.id) + 1, ids } : null,
    ...(row.agent_run_id && { tool_calls: row.tool_calls as StoredToolCall[] }),
    created_at: row.created_at.toISOString(),
  };
};
