import { createContext, useContext } from 'react';
import type { AiProviderId } from '@/lib/providers';

export type ChatContextValue = {
  /** The provider new conversations use; saved as `default_ai_provider`. */
  provider: AiProviderId;
  setProvider: (provider: AiProviderId) => void;
};

export const ChatContext = createContext<ChatContextValue | null>(null);

export const useChat = (): ChatContextValue => {
  const value = useContext(ChatContext);
  if (!value) throw new Error('useChat must be used inside <ChatProvider>');
  return value;
};
