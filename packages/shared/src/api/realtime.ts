/** What `/realtime/v1` tells a user's other tabs: which row changed, never its content. */
export type RealtimeChange = {
  table: 'conversations' | 'messages';
  type: 'INSERT' | 'UPDATE' | 'DELETE';
  id: string;
  conversation_id: string;
};

/** Spec §9. */
export const realtimeTimings = {
  timeoutMs: 10_000,
  heartbeatMs: 30_000,
  reconnectDelaysMs: [1_000, 2_000, 5_000, 10_000],
} as const;
