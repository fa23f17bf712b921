import { createContext, useContext } from 'react';
import type { ProviderId } from '@chorus/shared/providers';

export type ChatContextValue = {
  /** The provider new conversations use; saved as `default_ai_provider`. */
  provider: ProviderId;
  setProvider: (provider: ProviderId) => void;
};

export const ChatContext = createContext<ChatContextValue | null>(null);

export const useChat = (): ChatContextValue => {
  const value = useContext(ChatContext);
  if (!value) throw new Error('useChat must be used inside <ChatProvider>');
  return value;
};
