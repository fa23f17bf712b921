import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Scenario } from '@chorus/shared/api/scenarios';
import { renderRoutes, signedInSession } from '@/test/render';
import { ScenariosPage } from './scenarios-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const scenario = (id: string, title: string): Scenario => ({
  id,
  title,
  description: `About ${title}`,
  category: 'Code',
  system_prompt: '',
  user_prompt: 'Hello',
  variables: {},
  parameters: {},
  targets: [
    { provider: 'openai', model: 'gpt-5-mini' },
    { provider: 'anthropic', model: 'claude-haiku-4-5' },
  ],
  last_run_at: id === 's1' ? '2026-03-01T10:00:00.000Z' : null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const routes = [{ path: '/scenarios', element: <ScenariosPage /> }];

describe('the scenarios list', () => {
  it('shows each scenario with its models, loads the next page, and deletes after a confirm', async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(String(input), window.location.origin);
        const method = init?.method ?? 'GET';
        calls.push(`${method} ${url.pathname}${url.search}`);
        if (method === 'DELETE') return new Response(null, { status: 204 });
        return url.searchParams.get('cursor') === 'c2'
          ? json({ items: [scenario('s2', 'Second')], next_cursor: null })
          : json({ items: [scenario('s1', 'First')], next_cursor: 'c2' });
      }),
    );
    renderRoutes({ path: '/scenarios', routes, session: signedInSession });

    const list = await screen.findByRole('list', { name: 'Your scenarios' });
    const first = within(list).getByRole('listitem', { name: 'First' });
    expect(within(first).getByRole('list', { name: 'Models' }).textContent).toBe(
      'OpenAI·GPT-5 miniAnthropic·Claude Haiku 4.5',
    );
    expect(first.textContent).toContain('Last run');
    expect(within(first).getByRole('link', { name: 'Run “First”' }).getAttribute('href')).toBe(
      '/scenario-proxy-plus?scenario=s1',
    );
    expect(screen.getByText(/Sample figures/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(list).findByRole('listitem', { name: 'Second' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    fireEvent.click(within(first).getByRole('button', { name: 'Delete “First”' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete scenario' }));
    await waitFor(() => expect(calls).toContain('DELETE /rest/v1/scenarios/s1'));
  });
});
