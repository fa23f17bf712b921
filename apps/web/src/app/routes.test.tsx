import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminRedirect, signInRedirect } from '@chorus/shared/routes';
import { renderRoutes, signedInSession } from '@/test/render';
import { routes } from './routes';

const currentUrl = (router: ReturnType<typeof renderRoutes>['router']) =>
  `${router.state.location.pathname}${router.state.location.search}`;

describe('route guards', () => {
  it('sends a guest on a signed-in route to sign in, remembering the path', async () => {
    const { router } = renderRoutes({ path: '/chat', routes });
    await waitFor(() => expect(currentUrl(router)).toBe(signInRedirect('/chat')));
    expect(currentUrl(router)).toBe('/auth?redirect=true&from=%2Fchat');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('replaces the history entry when redirecting a guest', async () => {
    const { router } = renderRoutes({ path: '/profile', routes });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('sends a guest on an admin route to sign in with from=/admin', async () => {
    const { router } = renderRoutes({ path: '/admin/users', routes });
    await waitFor(() => expect(currentUrl(router)).toBe(adminRedirect));
  });

  it('sends a signed-in user who is not an admin away from admin routes without a loop', async () => {
    const { router } = renderRoutes({
      path: '/admin/analytics',
      routes,
      session: signedInSession,
      adminStatus: { isAdmin: false, isSuperAdmin: false },
    });
    await waitFor(() => expect(currentUrl(router)).toBe(adminRedirect));
    expect(await screen.findByText('The back office is for administrators')).toBeTruthy();
    expect(currentUrl(router)).toBe(adminRedirect);
  });

  it('lets an admin into the back office', async () => {
    const { router } = renderRoutes({
      path: '/admin/users',
      routes,
      session: signedInSession,
      adminStatus: { isAdmin: true, isSuperAdmin: false },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/users');
  });

  it('lets a signed-in user onto a signed-in route', async () => {
    const { router } = renderRoutes({ path: '/prompts', routes, session: signedInSession });
    expect(await screen.findByRole('heading', { level: 1, name: 'Prompt library' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/prompts');
  });

  it('sends a signed-in user on /auth on to where they came from', async () => {
    const { router } = renderRoutes({
      path: signInRedirect('/tools'),
      routes,
      session: signedInSession,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/tools'));
  });

  it('shows the landing page for an unknown path and keeps the URL', async () => {
    const { router } = renderRoutes({ path: '/no/such/page', routes });
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Every AI model your team needs, in one place',
      }),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/no/such/page');
  });
});

describe('route preloading', () => {
  it('starts loading the layout and the page of a URL before anything renders', async () => {
    const { preloadRoute } = await import('./lazy-page');
    const calls: string[] = [];
    const page = (name: string) =>
      Object.assign(() => null, { preload: () => calls.push(name) }) as unknown as () => null;
    const Layout = page('layout');
    const Chat = page('chat');
    const Other = page('other');
    preloadRoute(
      [
        {
          path: '/',
          children: [
            { element: <Layout />, children: [{ path: 'chat/:id', element: <Chat /> }] },
            { path: 'other', element: <Other /> },
          ],
        },
      ],
      '/chat/42',
    );
    expect(calls).toEqual(['layout', 'chat']);
  });
});
