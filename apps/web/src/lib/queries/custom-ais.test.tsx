import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import { useCustomAiForChat } from './custom-ais';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const customAi = (over: Partial<CustomAi>): CustomAi => ({
  id: 'mine',
  name: 'Mine',
  description: '',
  avatar: '',
  system_prompt: '',
  provider: 'openai',
  model: null,
  parameters: { temperature: null, top_p: null, max_tokens: null },
  starters: [],
  knowledge_base_ids: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

const mine = customAi({});
const published = customAi({ id: 'theirs', name: 'Pirate tutor', owned: false });

const renderLookup = (id: string | null) => {
  const requested: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = new URL(String(input), window.location.origin).pathname;
      requested.push(path);
      if (path === '/rest/v1/custom-ais') return json({ custom_ais: [mine] });
      if (path === '/rest/v1/custom-ais/theirs') return json(published);
      return json({ error: 'No such custom AI.', code: 'custom_ais:not_found' }, 404);
    }),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return { ...renderHook(() => useCustomAiForChat(id), { wrapper }), requested };
};

describe('the custom AI a chat talks to', () => {
  it('is found in the user’s own list, with no request of its own', async () => {
    const { result, requested } = renderLookup('mine');
    await waitFor(() => expect(result.current.customAi?.name).toBe('Mine'));
    expect(result.current.gone).toBe(false);
    expect(requested).toEqual(['/rest/v1/custom-ais']);
  });

  it('is read on its own when published by someone else, and offered beside the list', async () => {
    const { result } = renderLookup('theirs');
    await waitFor(() => expect(result.current.customAi?.name).toBe('Pirate tutor'));
    expect(result.current.customAis?.map((ai) => ai.id)).toEqual(['mine', 'theirs']);
    expect(result.current.gone).toBe(false);
  });

  it('is gone once neither has it (deleted, or no longer shared)', async () => {
    const { result } = renderLookup('unknown');
    await waitFor(() => expect(result.current.gone).toBe(true));
    expect(result.current.customAi).toBeUndefined();
    expect(result.current.customAis?.map((ai) => ai.id)).toEqual(['mine']);
  });
});
