import { createContext, useContext } from 'react';
import type { ProviderId } from '@chorus/shared/providers';
import type { LiveChat } from '@/lib/chat/live-chat';

export type ChatContextValue = {
  /** The provider new conversations use; saved as `default_ai_provider`. */
  provider: ProviderId;
  setProvider: (provider: ProviderId) => void;
  /**
   * Each conversation's stream, by conversation id. Kept here rather than in a page so a reply
   * keeps streaming while the URL moves from /chat to /chat/{id}, or to another conversation.
   */
  liveChats: Map<string, LiveChat>;
};

export const ChatContext = createContext<ChatContextValue | null>(null);

export const useChatFeature = (): ChatContextValue => {
  const value = useContext(ChatContext);
  if (!value) throw new Error('useChatFeature must be used inside <ChatProvider>');
  return value;
};
