import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '@/test/render';
import { UnsubscribePage } from './unsubscribe-page';

const routes = [{ path: '/unsubscribe', element: <UnsubscribePage /> }];

describe('UnsubscribePage', () => {
  it('asks for one click, then records the opt-out and says so', async () => {
    const fetchSpy = vi.fn(async () =>
      Response.json({ email: 'ann@example.com', unsubscribed: true }),
    );
    vi.stubGlobal('fetch', fetchSpy);
    renderRoutes({ path: '/unsubscribe?email=Ann%40Example.com&token=signed-token', routes });

    expect(await screen.findByText('Ann@Example.com')).toBeTruthy();
    expect(fetchSpy).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));

    expect(await screen.findByRole('heading', { name: 'You are unsubscribed' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('ann@example.com');
    await waitFor(() =>
      expect(fetchSpy).toHaveBeenCalledWith(
        '/rest/v1/unsubscribe',
        expect.objectContaining({
          method: 'POST',
          body: JSON.stringify({ email: 'Ann@Example.com', token: 'signed-token' }),
        }),
      ),
    );
  });

  it('explains a link without a valid address or its token and offers no button', async () => {
    for (const path of [
      '/unsubscribe?email=nobody&token=t',
      '/unsubscribe?email=ann%40example.com',
    ]) {
      const view = renderRoutes({ path, routes });
      expect(await screen.findByRole('alert')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
      view.unmount();
    }
  });
});
