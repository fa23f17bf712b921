import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LibraryScenario } from '@chorus/shared/api/library';
import { signInRedirect } from '@chorus/shared/routes';
import { renderRoutes, signedInSession } from '@/test/render';
import { ScenariosCookbookPage } from './scenarios-cookbook-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const entry = (over: Partial<LibraryScenario>): LibraryScenario => ({
  id: 'lib-1',
  title: 'Review a pull request',
  description: 'Ask several models for a careful code review.',
  category: 'Code',
  published: true,
  featured: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  steps: ['Read the diff', 'List the risks'],
  system_prompt: '',
  user_prompt: '',
  targets: [{ provider: 'anthropic', model: 'claude-sonnet-4-5' }],
  ...over,
});

const library = [
  entry({}),
  entry({
    id: 'lib-2',
    title: 'Summarise a report',
    description: 'A one-page summary.',
    category: 'Writing',
    user_prompt: 'Summarise {{report}} in five bullet points.',
  }),
];

const stubServer = (items: LibraryScenario[] = library) => {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.origin);
      calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
      if (url.pathname === '/rest/v1/library/scenarios') return json({ items });
      if (url.pathname === '/rest/v1/library/scenarios/lib-2/copy') {
        return json({ id: 'copy-9', title: 'Summarise a report' }, 201);
      }
      return json({ error: `unexpected ${url.pathname}` }, 500);
    }),
  );
  return calls;
};

const routes = [
  { path: '/scenarios-cookbook', element: <ScenariosCookbookPage /> },
  { path: '/scenarios/:id', element: <p>Scenario page</p> },
  { path: '/auth', element: <p>Sign-in page</p> },
];

describe('the scenarios cookbook', () => {
  it('filters by category chip and by search, on the client', async () => {
    stubServer();
    renderRoutes({ path: '/scenarios-cookbook', routes });
    const list = await screen.findByRole('list', { name: 'Cookbook scenarios' });
    expect(
      within(list)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Review a pull request', 'Summarise a report']);
    expect(within(list).getByText(/1\. Read the diff\s+2\. List the risks/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Writing' }));
    expect(
      within(list)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Summarise a report']);
    fireEvent.click(screen.getByRole('button', { name: 'All' }));
    fireEvent.change(screen.getByLabelText('Search the cookbook'), {
      target: { value: 'careful code' },
    });
    expect(
      within(list)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Review a pull request']);
  });

  it('sends a signed-out visitor to sign in, to come back to the same entry', async () => {
    stubServer();
    const { router } = renderRoutes({ path: '/scenarios-cookbook', routes });
    fireEvent.click(
      await screen.findByRole('button', { name: 'Use this scenario “Summarise a report”' }),
    );
    await waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        signInRedirect('/scenarios-cookbook?use=lib-2'),
      ),
    );
  });

  it('copies the entry chosen before signing in, once, and opens the copy', async () => {
    const calls = stubServer();
    const { router } = renderRoutes({
      path: '/scenarios-cookbook?use=lib-2',
      routes,
      session: signedInSession,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/scenarios/copy-9'));
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([
      'POST /rest/v1/library/scenarios/lib-2/copy',
    ]);
  });

  it('says so when nothing is published', async () => {
    stubServer([]);
    renderRoutes({ path: '/scenarios-cookbook', routes });
    expect(await screen.findByRole('heading', { name: 'No recipes published yet' })).toBeTruthy();
  });
});
