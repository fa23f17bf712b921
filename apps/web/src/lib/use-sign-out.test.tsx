import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Suspense, lazy } from 'react';
import { Outlet, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { RequireAuth } from '@/app/guards/require-auth';
import { renderRoutes, signedInSession } from '@/test/render';
import { authClient } from './auth-client';
import { sessionQueryKey } from './session';
import { useSignOut } from './use-sign-out';

const SignOutButton = () => {
  const { signOut } = useSignOut();
  return (
    <button type="button" onClick={() => void signOut()}>
      Sign out
    </button>
  );
};

/** A landing page whose code arrives only when the test lets it. */
const slowLanding = () => {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const Landing = lazy(async () => {
    await arrived;
    return { default: () => <h1>Landing</h1> };
  });
  return { Landing, arrive };
};

describe('signing out', () => {
  it('goes to the landing page, not back to sign in, while the landing page still loads', async () => {
    vi.spyOn(authClient, 'signOut').mockResolvedValue({ data: { success: true }, error: null });
    const { Landing, arrive } = slowLanding();
    const routes: RouteObject[] = [
      {
        path: '/',
        element: (
          <Suspense fallback={<p>Loading</p>}>
            <Outlet />
          </Suspense>
        ),
        children: [
          { index: true, element: <Landing /> },
          { path: 'auth', element: <h1>Sign in</h1> },
          { element: <RequireAuth />, children: [{ path: 'prompts', element: <SignOutButton /> }] },
        ],
      },
    ];
    const { router, queryClient } = renderRoutes({
      path: '/prompts',
      routes,
      session: signedInSession,
    });

    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(queryClient.getQueryData(sessionQueryKey)).toBeNull());
    arrive();
    expect(await screen.findByRole('heading', { name: 'Landing' })).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/');
  });
});
