import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { routes } from '@/app/routes';
import { renderRoutes, signedInSession } from '@/test/render';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('profile page', () => {
  it('falls back to the Free plan when the profile cannot be loaded', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = new URL(String(input), 'http://localhost').pathname;
        if (path === '/rest/v1/profile') {
          return json({ error: 'The database is not answering.', code: 'db:down' }, 503);
        }
        return json({ error: 'Not stubbed', code: 'test:not_stubbed' }, 404);
      }),
    );
    renderRoutes({ path: '/profile', routes, session: signedInSession });

    expect(
      await screen.findByText('Your profile could not be loaded', { exact: false }),
    ).toBeTruthy();
    expect(screen.getByText('Plan and usage')).toBeTruthy();
    expect(screen.getByText('Free')).toBeTruthy();
  });
});
