import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import { AppProviders } from '@/app/providers/app-providers';
import { flushRouterUpdate } from '@/app/flush-router-update';
import type { AuthSession } from '@/lib/auth-client';
import { adminStatusQueryOptions, type AdminStatus } from '@/lib/roles';
import { sessionQueryKey } from '@/lib/session';

export const testUser = { id: 'user-1', email: 'ada@example.com', name: 'Ada' };

export const signedInSession: AuthSession = {
  session: { id: 'session-1', expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
  user: testUser,
};

type RenderOptions = {
  path: string;
  routes: RouteObject[];
  session?: AuthSession | null;
  adminStatus?: AdminStatus;
};

/** Renders routes in memory with the app's providers and a known session (no network). */
export const renderRoutes = ({ path, routes, session = null, adminStatus }: RenderOptions) => {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  queryClient.setQueryData(sessionQueryKey, session);
  if (session) {
    queryClient.setQueryData(
      adminStatusQueryOptions(session.user.id).queryKey,
      adminStatus ?? { isAdmin: false, isSuperAdmin: false },
    );
  }
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} flushSync={flushRouterUpdate} />
    </AppProviders>,
  );
  return { ...result, router, queryClient };
};
