import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '@/test/render';
import { HelpArticlePage } from './help-article-page';
import { HelpPage } from './help-page';

const routes = [
  { path: '/help', element: <HelpPage /> },
  { path: '/help/:slug', element: <HelpArticlePage /> },
];

// The pages set the document's title and description; other test files share this document.
afterEach(() => {
  document.title = '';
  document.head.querySelector('meta[name="description"]')?.remove();
});

const description = () =>
  document.head.querySelector<HTMLMetaElement>('meta[name="description"]')?.content;

const searchBox = () => screen.getByRole('searchbox', { name: 'Search the help center' });

describe('the help center', () => {
  it('lists the guides by group, the FAQ, the shortcuts and the contact form, with a title', async () => {
    renderRoutes({ path: '/help', routes });
    expect(screen.getByRole('heading', { level: 1, name: 'Help center' })).toBeTruthy();
    const guides = screen.getByRole('region', { name: 'Guides' });
    expect(within(guides).getByRole('heading', { level: 3, name: 'Start here' })).toBeTruthy();
    expect(
      within(guides)
        .getByRole('link', { name: /^Prompts/ })
        .getAttribute('href'),
    ).toBe('/help/prompts');
    expect(screen.getByRole('heading', { name: 'Frequently asked questions' })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Keyboard shortcuts in the chat' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Contact support' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Help center · Chorus'));
    expect(description()).toMatch(/^Guides to Chorus/);
  });

  it('fetches the contact form once its section comes near the screen', async () => {
    let reveal: (() => void) | undefined;
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private readonly callback: IntersectionObserverCallback) {}
        observe(target: Element) {
          reveal = () =>
            this.callback(
              [{ isIntersecting: true, target } as IntersectionObserverEntry],
              this as unknown as IntersectionObserver,
            );
        }
        disconnect() {}
      },
    );
    renderRoutes({ path: '/help', routes });
    await screen.findByRole('heading', { name: 'Contact support' });
    expect(screen.queryByRole('button', { name: 'Send message' })).toBeNull();
    act(() => reveal?.());
    expect(await screen.findByRole('button', { name: 'Send message' })).toBeTruthy();
  });

  it('searches as one types, keeps the query in the URL and marks the words found', async () => {
    const { router } = renderRoutes({ path: '/help', routes });
    fireEvent.change(searchBox(), { target: { value: 'variables' } });
    const results = await screen.findByRole('list', { name: 'Search results' });
    const first = within(results).getAllByRole('link')[0]!;
    expect(first.getAttribute('href')).toBe('/help/prompts#variables');
    expect(first.textContent).toContain('Prompts › Variables');
    expect(within(first).getAllByText(/variables?/i, { selector: 'mark' }).length).toBeGreaterThan(
      0,
    );
    expect(screen.getByRole('status').textContent).toMatch(/articles? match(es)? “variables”/);
    expect(router.state.location.search).toBe('?q=variables');
    // The guides give way to the results.
    expect(screen.queryByRole('region', { name: 'Guides' })).toBeNull();
  });

  it('opens with the results of the query in its URL', async () => {
    renderRoutes({ path: '/help?q=rate%20limit', routes });
    expect(searchBox()).toHaveProperty('value', 'rate limit');
    const results = await screen.findByRole('list', { name: 'Search results' });
    expect(within(results).getAllByRole('link')[0]!.getAttribute('href')).toBe(
      '/help/chat#rate-limits',
    );
  });

  it('says when nothing matches and shows the guides instead', async () => {
    renderRoutes({ path: '/help?q=zyxwvut', routes });
    expect(
      await screen.findByText(
        'No article matches “zyxwvut”. Try other words, or browse the guides below.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Guides' })).toBeTruthy();
  });

  it('moves from the box to the results with ↓, and back with ↑; Esc clears the box', async () => {
    const { router } = renderRoutes({ path: '/help?q=export', routes });
    const results = await screen.findByRole('list', { name: 'Search results' });
    const [first, second] = within(results).getAllByRole('link');
    fireEvent.keyDown(searchBox(), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(second);
    fireEvent.keyDown(second!, { key: 'ArrowUp' });
    fireEvent.keyDown(first!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(searchBox());
    fireEvent.keyDown(searchBox(), { key: 'Escape' });
    expect(searchBox()).toHaveProperty('value', '');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('finds the FAQ too, and opens the question it found', async () => {
    const { router } = renderRoutes({ path: '/help?q=dark%20mode', routes });
    const results = await screen.findByRole('list', { name: 'Search results' });
    const hit = within(results).getByRole('link', { name: /Can I use dark mode\?/ });
    expect(hit.getAttribute('href')).toBe('/help#faq-can-i-use-dark-mode');
    fireEvent.click(hit);
    await waitFor(() => expect(router.state.location.hash).toBe('#faq-can-i-use-dark-mode'));
    const question = document.getElementById('faq-can-i-use-dark-mode') as HTMLDetailsElement;
    await waitFor(() => expect(question.open).toBe(true));
    // The search is over: the box is empty and the guides are back.
    expect(searchBox()).toHaveProperty('value', '');
  });

  it('opens the first result with Enter', async () => {
    const { router } = renderRoutes({ path: '/help?q=ollama', routes });
    await screen.findByRole('list', { name: 'Search results' });
    fireEvent.submit(searchBox().closest('form')!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/help/keys-and-providers'));
    expect(router.state.location.hash).toBe('#ollama');
  });
});

describe('a help article', () => {
  it('shows its title, description, contents and related articles, and names the page', async () => {
    renderRoutes({ path: '/help/chat', routes });
    expect(await screen.findByRole('heading', { level: 1, name: 'Chat' })).toBeTruthy();
    const contents = screen.getAllByRole('navigation', { name: 'On this page' })[0]!;
    expect(within(contents).getByRole('link', { name: 'Rate limits' }).getAttribute('href')).toBe(
      '/help/chat#rate-limits',
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Rate limits' }).id).toBe('rate-limits');
    const related = screen.getByRole('region', { name: 'Related articles' });
    expect(within(related).getByRole('link', { name: /^Keys and providers/ })).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Back to help' })[0]!.getAttribute('href')).toBe(
      '/help',
    );
    await waitFor(() => expect(document.title).toBe('Chat · Help · Chorus'));
    expect(description()).toMatch(/^Choose models and settings/);
  });

  it('opens at the heading its URL names, marked and focused', async () => {
    renderRoutes({ path: '/help/chat#rate-limits', routes });
    const heading = await screen.findByRole('heading', { level: 2, name: 'Rate limits' });
    await waitFor(() => expect(heading.hasAttribute('data-target')).toBe(true));
    expect(document.activeElement).toBe(heading);
  });

  it('draws the shortcuts from the app’s own list', async () => {
    renderRoutes({ path: '/help/keyboard-shortcuts', routes });
    const table = await screen.findByRole('table', { name: 'Keyboard shortcuts in the chat' });
    expect(within(table).getByText('Search your messages')).toBeTruthy();
  });

  it('follows a link to another article within the app', async () => {
    const { router } = renderRoutes({ path: '/help/getting-started', routes });
    await screen.findByRole('heading', { level: 1, name: 'Getting started' });
    const body = document.querySelector('.help-article')!;
    const link = within(body as HTMLElement).getAllByRole('link', {
      name: 'Keys and providers',
    })[0]!;
    fireEvent.click(link);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Keys and providers' }),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/help/keys-and-providers');
  });

  it('says plainly when there is no article at the address, with a way back and a search', async () => {
    const { router } = renderRoutes({ path: '/help/no-such-article', routes });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'There is no help article here' }),
    ).toBeTruthy();
    expect(screen.getByText('/help/no-such-article')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to help' }).getAttribute('href')).toBe('/help');
    fireEvent.change(searchBox(), { target: { value: 'api key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=api%20key'));
    expect(router.state.location.pathname).toBe('/help');
  });
});
