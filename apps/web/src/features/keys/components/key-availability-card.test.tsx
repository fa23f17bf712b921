import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ProviderAvailability } from '@chorus/shared/api/keys';
import { providerIds } from '@chorus/shared/providers';
import { KeyAvailabilityCard } from './key-availability-card';

const answer: ProviderAvailability[] = providerIds.map((provider) => ({
  provider,
  enabled: provider !== 'deepseek',
  source:
    provider === 'openai'
      ? 'user'
      : provider === 'anthropic'
        ? 'default'
        : provider === 'gemini'
          ? 'system'
          : provider === 'ollama'
            ? 'none'
            : null,
  key_hint: provider === 'openai' ? 'sk-…a1b2' : null,
}));

describe('KeyAvailabilityCard', () => {
  it('shows for every provider whether it is on and which key a call would use', async () => {
    const fetchSpy = vi.fn(async () => Response.json(answer));
    vi.stubGlobal('fetch', fetchSpy);
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <KeyAvailabilityCard />
      </QueryClientProvider>,
    );

    const list = await screen.findByRole('list', { name: 'Providers available to you' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(8);
    const row = (name: string) => rows.find((r) => r.textContent?.startsWith(name))!;
    expect(row('OpenAI').textContent).toContain('Your key');
    expect(row('OpenAI').textContent).toContain('sk-…a1b2');
    expect(row('Anthropic').textContent).toContain('Default key from your administrator');
    expect(row('Gemini').textContent).toContain('System key');
    expect(row('Ollama').textContent).toContain('no key needed');
    expect(row('DeepSeek').textContent).toContain('Turned off by your administrator');
    const add = within(row('Mistral')).getByRole('link', { name: 'add one below' });
    expect(add.getAttribute('href')).toBe('#key-mistral');
    expect(fetchSpy).toHaveBeenCalledWith('/rest/v1/api-keys/availability', expect.anything());
  });
});
