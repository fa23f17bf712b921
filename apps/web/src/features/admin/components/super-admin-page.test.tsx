import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AdminOverview, AdminUsersResponse } from '@chorus/shared/api/admin';
import type { AppSettings } from '@chorus/shared/api/settings';
import { messageFor } from '@chorus/shared/error-catalogue';
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
  outbound_allow_hosts: ['10.20.0.0/16'],
  updated_at: null,
};
const staff: AdminUsersResponse = { users: [], total: 0, plans: [] };

/** `onPut` answers a save of the settings; by default it echoes the body back. */
const stubApi = (
  onPut?: (body: Partial<AppSettings>) => Response,
  current: AppSettings = settings,
) => {
  const fetchSpy = vi.fn(async (url: string, init?: RequestInit) => {
    if (url.startsWith('/rest/v1/admin/settings') && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as Partial<AppSettings>;
      return onPut
        ? onPut(body)
        : Response.json({ ...current, ...body, updated_at: '2026-02-01T00:00:00.000Z' });
    }
    if (url.startsWith('/rest/v1/admin/overview')) return Response.json(overview);
    if (url.startsWith('/rest/v1/admin/settings')) return Response.json(current);
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

  it('edits the private hosts tools may reach and saves them with the settings', async () => {
    const fetchSpy = stubApi();
    renderRoutes({
      path: '/admin/super-admin',
      routes,
      session: signedInSession,
      adminStatus: { isAdmin: true, isSuperAdmin: true },
    });
    const hosts = await screen.findByRole('group', { name: 'Private hosts tools may reach' });
    expect(hosts.textContent).toContain('anyone who can make an agent can read from it');
    expect(within(hosts).getByRole('list', { name: 'Allowed private hosts' }).textContent).toBe(
      '10.20.0.0/16',
    );
    const entry = within(hosts).getByLabelText('Add a private host');
    fireEvent.change(entry, { target: { value: 'mcp.intranet.example, 10.0.0.5' } });
    // Enter adds the entries; it does not send the form.
    fireEvent.keyDown(entry, { key: 'Enter' });
    fireEvent.click(within(hosts).getByRole('button', { name: 'Remove 10.20.0.0/16' }));
    expect(
      within(hosts)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['mcp.intranet.example', '10.0.0.5']);
    expect(fetchSpy.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => {
      const put = fetchSpy.mock.calls.find(([, init]) => init?.method === 'PUT');
      expect(JSON.parse(String(put?.[1]?.body))).toEqual({
        signup_mode: 'request',
        signup_notice: 'Ask Ada.',
        outbound_allow_hosts: ['mcp.intranet.example', '10.0.0.5'],
      });
    });
  });

  it('says none is reachable when the list is empty, and shows a refused entry’s message', async () => {
    stubApi(
      () =>
        Response.json(
          { error: messageFor('outbound:bad_allow_entry'), code: 'outbound:bad_allow_entry' },
          { status: 400 },
        ),
      { ...settings, outbound_allow_hosts: [] },
    );
    renderRoutes({
      path: '/admin/super-admin',
      routes,
      session: signedInSession,
      adminStatus: { isAdmin: true, isSuperAdmin: true },
    });
    const hosts = await screen.findByRole('group', { name: 'Private hosts tools may reach' });
    expect(hosts.textContent).toContain('None: no private host is reachable (the default).');
    fireEvent.change(within(hosts).getByLabelText('Add a private host'), {
      target: { value: '10.0.0.0/99' },
    });
    fireEvent.click(within(hosts).getByRole('button', { name: 'Add host' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect((await within(hosts).findByRole('alert')).textContent).toBe(
      messageFor('outbound:bad_allow_entry'),
    );
  });
});
