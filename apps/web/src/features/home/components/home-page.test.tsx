import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LibraryPrompt, LibraryScenario } from '@chorus/shared/api/library';
import { renderRoutes, signedInSession } from '@/test/render';
import { HomePage } from './home-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const base = {
  description: '',
  category: 'Writing',
  published: true,
  featured: false,
  updated_at: '2026-01-01T00:00:00.000Z',
};

const prompt = (
  id: string,
  title: string,
  featured: boolean,
  created_at: string,
): LibraryPrompt => ({
  ...base,
  id,
  title,
  featured,
  created_at,
  content: `The text of ${title}`,
  tags: [],
});

const scenario = (id: string, title: string): LibraryScenario => ({
  ...base,
  id,
  title,
  created_at: '2026-01-01T00:00:00.000Z',
  steps: ['Read it', 'Sum it up'],
  system_prompt: '',
  user_prompt: '',
  targets: [],
});

const prompts = [
  prompt('p1', 'Plain old', false, '2026-01-01T00:00:00.000Z'),
  prompt('p2', 'Plain new', false, '2026-03-01T00:00:00.000Z'),
  prompt('p3', 'Featured one', true, '2026-01-05T00:00:00.000Z'),
  prompt('p4', 'Plain newest', false, '2026-04-01T00:00:00.000Z'),
];

const stubServer = () => {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.origin);
      calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      switch (url.pathname) {
        case '/rest/v1/library/prompts':
          return json({ items: prompts });
        case '/rest/v1/library/scenarios':
          return json({ items: [scenario('s1', 'Summarise a report')] });
        case '/functions/v1/get-enabled-providers':
          return json({ providers: ['anthropic', 'mistral'] });
        case '/rest/v1/conversations':
          return json({
            conversations: [
              {
                id: 'c1',
                title: 'Holiday plans',
                created_at: '2026-01-01T00:00:00.000Z',
                updated_at: '2026-01-02T00:00:00.000Z',
                pinned_at: null,
                system_prompt: '',
              },
            ],
            next_cursor: null,
          });
        default:
          return json({ error: `unexpected ${url.pathname}` }, 500);
      }
    }),
  );
  return calls;
};

const routes = [{ path: '/home', element: <HomePage /> }];

describe('the home page', () => {
  it('shows a guest the featured prompts first, the cookbook, the enabled providers and a sign-up call', async () => {
    const calls = stubServer();
    renderRoutes({ path: '/home', routes });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Every AI model your team uses, in one workspace',
    );
    const list = await screen.findByRole('list', { name: 'Library prompts' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Featured one', 'Plain newest', 'Plain new']);
    expect(within(list).getAllByRole('link')[0]!.getAttribute('href')).toBe(
      '/discover?kind=prompt&q=Featured%20one',
    );
    expect(
      within(await screen.findByRole('list', { name: 'Cookbook scenarios' })).getByText(
        'Summarise a report',
      ),
    ).toBeTruthy();
    const providersShown = await screen.findByRole('list', { name: 'Providers' });
    expect(
      within(providersShown)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Anthropic'), expect.stringContaining('Mistral')]);
    expect(screen.getByRole('link', { name: 'Create your account' }).getAttribute('href')).toBe(
      '/auth?mode=sign-up',
    );
    expect(calls).not.toContain('GET /rest/v1/conversations');
    expect(calls).toContain('POST /functions/v1/get-enabled-providers');
    expect(document.title).toBe('Home · Chorus');
  });

  it('shows a signed-in person their recent conversations and only the providers turned on', async () => {
    stubServer();
    renderRoutes({ path: '/home', routes, session: signedInSession });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome back, Ada');
    const recent = await screen.findByRole('list', { name: 'Recent conversations' });
    expect(
      within(recent).getByRole('link', { name: 'Continue “Holiday plans”' }).getAttribute('href'),
    ).toBe('/chat/c1');
    const providers = await screen.findByRole('list', { name: 'Providers' });
    expect(
      within(providers)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('p')?.textContent),
    ).toEqual(['Anthropic', 'Mistral']);
    expect(screen.queryByRole('link', { name: 'Create your account' })).toBeNull();
  });
});
