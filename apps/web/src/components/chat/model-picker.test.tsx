import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ModelPicker } from './model-picker';

describe('model picker', () => {
  it('greys out providers an admin turned off, but keeps the chosen one selectable', async () => {
    const fetchSpy = vi.fn(async (input: RequestInfo | URL) =>
      String(input) === '/functions/v1/get-enabled-providers'
        ? Response.json({ providers: ['openai', 'gemini'] })
        : Response.json({ error: 'Not stubbed' }, { status: 404 }),
    );
    vi.stubGlobal('fetch', fetchSpy);
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <ModelPicker
          provider="anthropic"
          onProviderChange={() => undefined}
          settings={{
            model: 'claude-sonnet-4-5',
            temperature: 0.7,
            topP: undefined,
            maxTokens: undefined,
          }}
          onSettingChange={() => undefined}
          onResetSettings={() => undefined}
        />
      </QueryClientProvider>,
    );

    const mistral = await screen.findByRole('option', {
      name: 'Mistral (turned off by an admin)',
    });
    expect((mistral as HTMLOptionElement).disabled).toBe(true);
    const chosen = screen.getByRole('option', { name: 'Anthropic (turned off by an admin)' });
    expect((chosen as HTMLOptionElement).disabled).toBe(false);
    expect((screen.getByRole('option', { name: 'OpenAI' }) as HTMLOptionElement).disabled).toBe(
      false,
    );
    await waitFor(() =>
      expect(fetchSpy).toHaveBeenCalledWith(
        '/functions/v1/get-enabled-providers',
        expect.objectContaining({ method: 'POST' }),
      ),
    );
  });
});
