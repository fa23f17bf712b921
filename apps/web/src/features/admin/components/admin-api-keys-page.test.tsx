import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AdminApiKeysResponse } from '@chorus/shared/api/admin-keys';
import { providerIds } from '@chorus/shared/providers';
import { AdminApiKeysPage } from './admin-api-keys-page';

const listing: AdminApiKeysResponse = {
  keys: [
    {
      provider: 'openai',
      kind: 'system',
      key_hint: 'sk-…a1b2',
      model: null,
      updated_at: '2026-01-01T00:00:00.000Z',
    },
  ],
  providers: providerIds.map((provider) => ({ provider, enabled: provider !== 'gemini' })),
};

const renderPage = () =>
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <AdminApiKeysPage />
    </QueryClientProvider>,
  );

describe('AdminApiKeysPage', () => {
  it('shows masked keys and switches a provider through the admin API', async () => {
    const fetchSpy = vi.fn(async (url: string, init?: RequestInit) =>
      init?.method === 'PATCH'
        ? Response.json({ provider: 'openai', enabled: false })
        : Response.json(listing),
    );
    vi.stubGlobal('fetch', fetchSpy);
    renderPage();

    expect(await screen.findByText('sk-…a1b2')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Turn Gemini on' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Turn OpenAI off' }));
    await waitFor(() =>
      expect(fetchSpy).toHaveBeenCalledWith(
        '/rest/v1/admin/providers/openai',
        expect.objectContaining({ method: 'PATCH', body: JSON.stringify({ enabled: false }) }),
      ),
    );
  });

  it('refuses a key in the wrong format with the spec message before calling the server', async () => {
    const fetchSpy = vi.fn(async () => Response.json(listing));
    vi.stubGlobal('fetch', fetchSpy);
    renderPage();

    const input = await screen.findByLabelText(/^Default key/, {
      selector: '#admin-key-default-perplexity',
    });
    fireEvent.change(input, { target: { value: 'sk-wrong' } });
    fireEvent.submit(input.closest('form')!);
    expect(
      await screen.findByText("Invalid Perplexity API key format - should start with 'pplx-'"),
    ).toBeTruthy();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });
});
