import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { storageKeys } from '@chorus/shared/storage-keys';
import { isProviderId, type ProviderId } from '@chorus/shared/providers';
import { defaultAiProvider } from '@/lib/providers';
import { storage } from '@/lib/storage';
import type { LiveChat } from '@/lib/chat/live-chat';
import { useRealtimeSync } from '../hooks/use-realtime-sync';
import { ChatContext } from './chat-context';

const readProvider = (): ProviderId => {
  const stored = storage.get(storageKeys.defaultProvider);
  return isProviderId(stored) ? stored : defaultAiProvider;
};

export const ChatProvider = ({ children }: { children: ReactNode }) => {
  const [provider, setProviderState] = useState<ProviderId>(readProvider);
  const [liveChats] = useState(() => new Map<string, LiveChat>());
  useRealtimeSync(liveChats);
  const setProvider = useCallback((next: ProviderId) => {
    storage.set(storageKeys.defaultProvider, next);
    setProviderState(next);
  }, []);
  const value = useMemo(
    () => ({ provider, setProvider, liveChats }),
    [provider, setProvider, liveChats],
  );
  return <ChatContext.Provider value={value}>{children}</ChatContext.Provider>;
};
