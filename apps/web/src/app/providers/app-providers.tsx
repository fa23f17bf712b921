import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createQueryClient } from '@/lib/query-client';
import { SessionExpirySync } from './session-expiry-sync';
import { SessionSync } from './session-sync';
import { ThemeProvider } from './theme-provider';

type AppProvidersProps = { children: ReactNode; queryClient?: QueryClient };

export const AppProviders = ({ children, queryClient }: AppProvidersProps) => {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>
        <SessionSync />
        <SessionExpirySync />
        {children}
      </ThemeProvider>
    </QueryClientProvider>
  );
};
