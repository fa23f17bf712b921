import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { DiscoverItem, DiscoverPage as Page } from '@chorus/shared/api/discover';
import { renderRoutes, signedInSession } from '@/test/render';
import { signInToUse, defaultFilters } from '../utils/discover-params';
import { DiscoverPage } from './discover-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type LibraryItem = Extract<DiscoverItem, { kind: 'prompt' | 'scenario' }>;

const item = (over: Partial<LibraryItem>): LibraryItem => ({
  kind: 'prompt',
  id: 'p-1',
  title: 'Polite follow-up email',
  description: 'A nudge that does not annoy.',
  category: 'Writing',
  tags: ['email'],
  preview: 'Write a short, polite follow-up to {{name}}.',
  featured: false,
  uses: 12,
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

const customAiItem = (over: Partial<Extract<DiscoverItem, { kind: 'custom_ai' }>> = {}) =>
  ({
    ...item({ id: 'ai-1', title: 'Pirate tutor', tags: [], preview: 'Answer like a pirate.' }),
    kind: 'custom_ai',
    avatar: '🦜',
    ...over,
  }) satisfies DiscoverItem;

const page = (items: DiscoverItem[], next_cursor: string | null = null): Page => ({
  items,
  next_cursor,
  categories: ['Code', 'Writing'],
  tags: ['email', 'git'],
});

type Answer = (url: URL, method: string) => Response | undefined;

const stubServer = (answer: Answer) => {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.origin);
      const method = init?.method ?? 'GET';
      calls.push(`${method} ${url.pathname}${url.search}`);
      return answer(url, method) ?? json({ error: `unexpected ${url.pathname}` }, 500);
    }),
  );
  return calls;
};

const routes = [
  { path: '/discover', element: <DiscoverPage /> },
  { path: '/scenarios/:id', element: <p>Scenario page</p> },
  { path: '/auth', element: <p>Sign-in page</p> },
];

const location = (router: { state: { location: { pathname: string; search: string } } }) =>
  `${router.state.location.pathname}${router.state.location.search}`;

describe('the discover directory', () => {
  it('lists results as cards with their kind, tags and uses, and loads more by cursor', async () => {
    const calls = stubServer((url) => {
      if (url.pathname !== '/rest/v1/discover') return undefined;
      return url.searchParams.get('cursor') === 'c2'
        ? json(
            page([
              item({ kind: 'scenario', id: 's-1', title: 'Review a pull request', uses: null }),
            ]),
          )
        : json(page([item({})], 'c2'));
    });
    renderRoutes({ path: '/discover', routes });
    const list = await screen.findByRole('list', { name: 'Results' });
    const card = within(list).getByRole('listitem', { name: 'Polite follow-up email' });
    expect(card.textContent).toContain('Prompt');
    expect(card.textContent).toContain('#email');
    expect(card.textContent).toContain('Used by 12 people in the last 30 days');
    expect(screen.getByText('1 result shown, more to load')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    const second = await within(list).findByRole('listitem', { name: 'Review a pull request' });
    expect(second.textContent).toContain('Scenario');
    expect(second.textContent).not.toContain('Used');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls).toEqual([
      'GET /rest/v1/discover?kind=all&sort=newest&limit=24',
      'GET /rest/v1/discover?kind=all&sort=newest&limit=24&cursor=c2',
    ]);
    expect(document.title).toBe('Discover · Chorus');
  });

  it('keeps kind, category, tag, sort and the typed search in the URL and asks the server with them', async () => {
    const calls = stubServer((url) =>
      url.pathname === '/rest/v1/discover' ? json(page([item({})])) : undefined,
    );
    const { router } = renderRoutes({ path: '/discover', routes });
    await screen.findByRole('list', { name: 'Results' });

    fireEvent.click(
      within(screen.getByRole('group', { name: 'Kind' })).getByRole('button', { name: 'Prompts' }),
    );
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'Writing' } });
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Tags' })).getByRole('button', { name: '#git' }),
    );
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'most_used' } });
    fireEvent.change(screen.getByLabelText('Search prompts and scenarios'), {
      target: { value: 'follow up' },
    });
    await waitFor(() =>
      expect(location(router)).toBe(
        '/discover?q=follow+up&kind=prompt&category=Writing&tag=git&sort=most_used',
      ),
    );
    await waitFor(() =>
      expect(calls.at(-1)).toBe(
        'GET /rest/v1/discover?kind=prompt&sort=most_used&limit=24&search=follow+up&category=Writing&tag=git',
      ),
    );
    expect(
      within(screen.getByRole('group', { name: 'Tags' }))
        .getByRole('button', { name: '#git' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
  });

  it('says nothing matches and offers to clear the filters', async () => {
    stubServer((url) =>
      url.pathname === '/rest/v1/discover'
        ? json(page(url.searchParams.get('tag') ? [] : [item({})]))
        : undefined,
    );
    const { router } = renderRoutes({ path: '/discover?tag=git', routes });
    expect(
      await screen.findByRole('heading', { name: 'Nothing matches these filters' }),
    ).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Clear filters' }).at(-1)!);
    await waitFor(() => expect(location(router)).toBe('/discover'));
    expect(await screen.findByRole('listitem', { name: 'Polite follow-up email' })).toBeTruthy();
  });

  it('says so when nothing is shared yet', async () => {
    stubServer((url) => (url.pathname === '/rest/v1/discover' ? json(page([])) : undefined));
    renderRoutes({ path: '/discover', routes });
    expect(await screen.findByRole('heading', { name: 'Nothing is shared yet' })).toBeTruthy();
  });

  it('explains a failure with a way to try again', async () => {
    let fail = true;
    stubServer((url) =>
      url.pathname === '/rest/v1/discover'
        ? fail
          ? json({ error: 'The server is restarting.' }, 503)
          : json(page([item({})]))
        : undefined,
    );
    renderRoutes({ path: '/discover', routes });
    expect((await screen.findByRole('alert')).textContent).toContain('The server is restarting.');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem', { name: 'Polite follow-up email' })).toBeTruthy();
  });

  it('sends a guest who chooses Use to sign in, to come back to the same filters and item', async () => {
    stubServer((url) =>
      url.pathname === '/rest/v1/discover'
        ? json(page([item({ kind: 'scenario', id: 's-1', title: 'Review a pull request' })]))
        : undefined,
    );
    const { router } = renderRoutes({ path: '/discover?kind=scenario', routes });
    fireEvent.click(
      await screen.findByRole('button', { name: 'Use this scenario “Review a pull request”' }),
    );
    await waitFor(() =>
      expect(location(router)).toBe(
        signInToUse({ ...defaultFilters, kind: 'scenario' }, { kind: 'scenario', id: 's-1' }),
      ),
    );
  });

  it('copies a scenario chosen before signing in, once, and opens the copy', async () => {
    const calls = stubServer((url, method) => {
      if (url.pathname === '/rest/v1/discover') {
        return json(page([item({ kind: 'scenario', id: 's-1', title: 'Review a pull request' })]));
      }
      if (method === 'POST' && url.pathname === '/rest/v1/library/scenarios/s-1/copy') {
        return json({ id: 'copy-9', title: 'Review a pull request' }, 201);
      }
      return undefined;
    });
    const { router } = renderRoutes({
      path: '/discover?kind=scenario&use=scenario%3As-1',
      routes,
      session: signedInSession,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/scenarios/copy-9'));
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([
      'POST /rest/v1/library/scenarios/s-1/copy',
    ]);
  });

  it('copies a prompt chosen before signing in, once, says where it went and drops it from the URL', async () => {
    const calls = stubServer((url, method) => {
      if (url.pathname === '/rest/v1/discover') return json(page([item({})]));
      if (method === 'POST' && url.pathname === '/rest/v1/library/prompts/p-1/copy') {
        return json({ id: 'mine-1', title: 'Polite follow-up email' }, 201);
      }
      return undefined;
    });
    const { router } = renderRoutes({
      path: '/discover?q=email&use=prompt%3Ap-1',
      routes,
      session: signedInSession,
    });
    const card = await screen.findByRole('listitem', { name: 'Polite follow-up email' });
    expect(
      (await within(card).findByRole('link', { name: 'Open your prompts' })).getAttribute('href'),
    ).toBe('/prompts');
    await waitFor(() => expect(location(router)).toBe('/discover?q=email'));
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([
      'POST /rest/v1/library/prompts/p-1/copy',
    ]);
  });

  it('shows a published custom AI with its avatar and instructions, and starts a chat with it', async () => {
    const calls = stubServer((url) =>
      url.pathname === '/rest/v1/discover' ? json(page([customAiItem()])) : undefined,
    );
    const { router } = renderRoutes({
      path: '/discover',
      routes: [...routes, { path: '/chat', element: <p>Chat page</p> }],
      session: signedInSession,
    });
    const card = await screen.findByRole('listitem', { name: 'Pirate tutor' });
    expect(card.getAttribute('data-kind')).toBe('custom_ai');
    expect(card.textContent).toContain('Custom AI');
    expect(card.textContent).toContain('🦜');
    expect(card.textContent).toContain('Instructions');
    expect(card.textContent).toContain('Answer like a pirate.');
    expect(within(card).queryByRole('button', { name: /Use this/ })).toBeNull();
    const start = within(card).getByRole('link', { name: 'Start a chat with “Pirate tutor”' });
    expect(start.getAttribute('href')).toBe('/chat?custom_ai=ai-1');
    fireEvent.click(start);
    await waitFor(() => expect(location(router)).toBe('/chat?custom_ai=ai-1'));
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('filters by the custom AI kind', async () => {
    const calls = stubServer((url) =>
      url.pathname === '/rest/v1/discover' ? json(page([customAiItem()])) : undefined,
    );
    const { router } = renderRoutes({ path: '/discover', routes });
    await screen.findByRole('list', { name: 'Results' });
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Kind' })).getByRole('button', {
        name: 'Custom AIs',
      }),
    );
    await waitFor(() => expect(location(router)).toBe('/discover?kind=custom_ai'));
    await waitFor(() =>
      expect(calls.at(-1)).toBe('GET /rest/v1/discover?kind=custom_ai&sort=newest&limit=24'),
    );
  });

  it('copies a prompt at once for someone signed in', async () => {
    const calls = stubServer((url, method) => {
      if (url.pathname === '/rest/v1/discover') return json(page([item({})]));
      if (method === 'POST') return json({ id: 'mine-1' }, 201);
      return undefined;
    });
    renderRoutes({ path: '/discover', routes, session: signedInSession });
    fireEvent.click(
      await screen.findByRole('button', { name: 'Use this prompt “Polite follow-up email”' }),
    );
    expect(await screen.findByRole('link', { name: 'Open your prompts' })).toBeTruthy();
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([
      'POST /rest/v1/library/prompts/p-1/copy',
    ]);
  });
});
