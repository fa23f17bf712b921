import { useQuery } from '@tanstack/react-query';
import type { ConversationPage } from '@chorus/shared/api/conversations';
import { api } from '@/lib/api-client';

export const recentConversationCount = 4;

/**
 * The first few rows of the conversation list (pinned first, then newest), for "continue where
 * you left off". Not under the list's own key: that one holds pages, which other code rewrites.
 */
export const useRecentConversations = (enabled: boolean) =>
  useQuery({
    queryKey: ['home', 'recent-conversations'],
    queryFn: ({ signal }) =>
      api.get<ConversationPage>(`/rest/v1/conversations?limit=${recentConversationCount}`, signal),
    enabled,
    staleTime: 0,
  });
