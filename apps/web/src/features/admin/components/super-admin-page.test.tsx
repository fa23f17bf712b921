import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AdminOverview, AdminUsersResponse } from '@chorus/shared/api/admin';
import type { AppSettings } from '@chorus/shared/api/settings';
import { routes } from '@/app/routes';
import { renderRoutes, signedInSession } from '@/test/render';

const overview: AdminOverview = {
  users_total: 3,
  active_today: 2,
  messages_today: 7,
  errors_today: 1,
  errors_breakdown: { client_errors: 1, failed_replies: 0 },
  pending_access_requests: 0,
  signup_mode: 'open',
  knowledge_search: 'hybrid',
};
const settings: AppSettings = {
  signup_mode: 'request',
  signup_notice: 'Ask Ada.',
  updated_at: null,
};
const staff: AdminUsersResponse = { users: [], total: 0, plans: [] };

const stubApi = () => {
  const fetchSpy = vi.fn(async (url: string) => {
    if (url.startsWith('/rest/v1/admin/overview')) return Response.json(overview);
    if (url.startsWith('/rest/v1/admin/settings')) return Response.json(settings);
    if (url.startsWith('/rest/v1/admin/users')) return Response.json(staff);
    return Response.json({ error: 'not stubbed' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchSpy);
  return fetchSpy;
};

describe('/admin/super-admin', () => {
  it('sends a plain admin back to the overview without asking for the settings', async () => {
    const fetchSpy = stubApi();
    const { router } = renderRoutes({
      path: '/admin/super-admin',
      routes,
      session: signedInSession,
      adminStatus: { isAdmin: true, isSuperAdmin: false },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Back office' })).toBeTruthy();
    expect(await screen.findByText('Messages today')).toBeTruthy();
    const areas = screen.getByRole('navigation', { name: 'Admin areas' });
    expect(within(areas).queryByRole('link', { name: /Super admin/ })).toBeNull();
    expect(within(areas).getByRole('link', { name: /Audit log/ })).toBeTruthy();
    expect(fetchSpy.mock.calls.some(([url]) => url.startsWith('/rest/v1/admin/settings'))).toBe(
      false,
    );
  });

  it('shows a super admin the sign-up mode and notice as saved', async () => {
    stubApi();
    renderRoutes({
      path: '/admin/super-admin',
      routes,
      session: signedInSession,
      adminStatus: { isAdmin: true, isSuperAdmin: true },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Super admin' })).toBeTruthy();
    const byRequest = await screen.findByRole('radio', { name: /By request/ });
    expect((byRequest as HTMLInputElement).checked).toBe(true);
    expect(
      (
        screen.getByLabelText(
          'Notice on the sign-in and request-access pages',
        ) as HTMLTextAreaElement
      ).value,
    ).toBe('Ask Ada.');
  });
});
