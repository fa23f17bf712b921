import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { storageKeys } from '@chorus/shared/storage-keys';
import { defaultAiProvider, isAiProviderId, type AiProviderId } from '@/lib/providers';
import { storage } from '@/lib/storage';
import { ChatContext } from './chat-context';

const readProvider = (): AiProviderId => {
  const stored = storage.get(storageKeys.defaultProvider);
  return isAiProviderId(stored) ? stored : defaultAiProvider;
};

export const ChatProvider = ({ children }: { children: ReactNode }) => {
  const [provider, setProviderState] = useState<AiProviderId>(readProvider);
  const setProvider = useCallback((next: AiProviderId) => {
    storage.set(storageKeys.defaultProvider, next);
    setProviderState(next);
  }, []);
  const value = useMemo(() => ({ provider, setProvider }), [provider, setProvider]);
  return <ChatContext.Provider value={value}>{children}</ChatContext.Provider>;
};
