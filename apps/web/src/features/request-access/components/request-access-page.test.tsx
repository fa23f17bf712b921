import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { peopleMessages } from '@chorus/shared/messages';
import { RequestAccessPage } from './request-access-page';

const renderPage = () =>
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <MemoryRouter>
        <RequestAccessPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('RequestAccessPage', () => {
  it('checks the address and the reason before sending anything', async () => {
    const fetchSpy = vi.fn(async (_url: string) =>
      Response.json({ signup_mode: 'request', signup_notice: '' }),
    );
    vi.stubGlobal('fetch', fetchSpy);
    renderPage();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request access' }));
    expect(await screen.findByText('Enter a valid e-mail address')).toBeTruthy();
    expect(screen.getByText('Say in a few words why you need access')).toBeTruthy();
    expect(fetchSpy.mock.calls.every(([url]) => url === '/rest/v1/signup-mode')).toBe(true);
  });

  it('sends the e-mail and reason and confirms without saying whether the address is known', async () => {
    const fetchSpy = vi.fn(async (url: string) =>
      url === '/rest/v1/access-requests'
        ? Response.json({ message: peopleMessages.accessRequestReceived }, { status: 202 })
        : Response.json({ signup_mode: 'request', signup_notice: 'For the Acme team only.' }),
    );
    vi.stubGlobal('fetch', fetchSpy);
    renderPage();
    expect(await screen.findByText('For the Acme team only.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: ' Ada@Example.com ' } });
    fireEvent.change(screen.getByLabelText('Why do you need access?'), {
      target: { value: 'I lead support.' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Request access' }));
    expect(await screen.findByText('Request received')).toBeTruthy();
    await waitFor(() =>
      expect(fetchSpy).toHaveBeenCalledWith(
        '/rest/v1/access-requests',
        expect.objectContaining({
          method: 'POST',
          body: JSON.stringify({ email: 'ada@example.com', reason: 'I lead support.' }),
        }),
      ),
    );
  });
});
