import type { RealtimeChange } from '@chorus/shared/api/realtime';

export const conversationChange = (type: RealtimeChange['type'], id: string): RealtimeChange => ({
  table: 'conversations',
  type,
  id,
  conversation_id: id,
});

export const messageChange = (
  type: RealtimeChange['type'],
  row: { id: string; conversation_id: string },
): RealtimeChange => ({
  table: 'messages',
  type,
  id: row.id,
  conversation_id: row.conversation_id,
});
