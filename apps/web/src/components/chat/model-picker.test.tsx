import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import { ModelPicker } from './model-picker';

const settings = {
  model: 'claude-sonnet-4-5',
  temperature: 0.7,
  topP: undefined,
  maxTokens: undefined,
};

const pirate: CustomAi = {
  id: '3c9a7b1e-2d4f-4e8a-9b6c-1a2b3c4d5e6f',
  name: 'Pirate tutor',
  description: '',
  avatar: '🦜',
  system_prompt: 'Answer like a pirate.',
  provider: 'openai',
  model: 'gpt-5-mini',
  parameters: { temperature: null, top_p: null, max_tokens: null },
  starters: [],
  knowledge_base_ids: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

const withQueries = (children: ReactNode) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    {children}
  </QueryClientProvider>
);

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

  it('offers the custom AIs as a group after the providers; picking one hands the chat to it', () => {
    const onCustomAiChange = vi.fn();
    const onProviderChange = vi.fn();
    const { rerender } = render(
      withQueries(
        <ModelPicker
          provider="anthropic"
          onProviderChange={onProviderChange}
          settings={settings}
          onSettingChange={() => undefined}
          onResetSettings={() => undefined}
          customAis={[pirate]}
          customAiId={null}
          onCustomAiChange={onCustomAiChange}
        />,
      ),
    );
    const select = screen.getByLabelText<HTMLSelectElement>('Provider');
    const group = select.querySelector('optgroup[label="Custom AIs"]') as HTMLElement;
    expect(within(group).getByRole('option', { name: '🦜 Pirate tutor' })).toBeTruthy();
    expect(select.querySelector('optgroup[label="Providers"]')?.textContent).toContain('Anthropic');

    fireEvent.change(select, { target: { value: `custom-ai:${pirate.id}` } });
    expect(onCustomAiChange).toHaveBeenCalledWith(pirate.id);
    expect(onProviderChange).not.toHaveBeenCalled();

    // Chosen, it replaces the model list and the settings with what it answers with.
    rerender(
      withQueries(
        <ModelPicker
          provider="anthropic"
          onProviderChange={onProviderChange}
          settings={settings}
          onSettingChange={() => undefined}
          onResetSettings={() => undefined}
          customAis={[pirate]}
          customAiId={pirate.id}
          onCustomAiChange={onCustomAiChange}
        />,
      ),
    );
    expect(select.value).toBe(`custom-ai:${pirate.id}`);
    expect(screen.queryByLabelText('Model')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Model settings' })).toBeNull();
    expect(screen.getByText('OpenAI · GPT-5 mini')).toBeTruthy();

    // A plain provider goes back to a plain model.
    fireEvent.change(select, { target: { value: 'anthropic' } });
    expect(onCustomAiChange).toHaveBeenLastCalledWith(null);
    expect(onProviderChange).toHaveBeenCalledWith('anthropic');
  });

  it('shows no custom AI group to someone who has none', () => {
    render(
      withQueries(
        <ModelPicker
          provider="openai"
          onProviderChange={() => undefined}
          settings={{ ...settings, model: 'gpt-5-mini' }}
          onSettingChange={() => undefined}
          onResetSettings={() => undefined}
          customAis={[]}
          customAiId={null}
          onCustomAiChange={() => undefined}
        />,
      ),
    );
    expect(screen.getByLabelText('Provider').querySelector('optgroup')).toBeNull();
  });
});
