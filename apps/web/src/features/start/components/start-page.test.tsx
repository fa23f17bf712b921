import { focusManager } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Onboarding, OnboardingStep } from '@chorus/shared/api/onboarding';
import { renderRoutes, signedInSession } from '@/test/render';
import { StartPage } from './start-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const step = (id: OnboardingStep['id'], done: boolean, label: string, href: string) => ({
  id,
  title: `The ${id} step`,
  description: `What the ${id} step is for.`,
  done,
  action: { label, href },
});

const onboarding = (over: Partial<Onboarding> = {}): Onboarding => {
  const steps = over.steps ?? [
    step('key', true, 'Add a key', '/copy-api-keys'),
    step('chat', false, 'Start a chat', '/chat'),
    step('prompt', false, 'Save a prompt', '/prompts'),
    step('scenario', true, 'Run a scenario', '/scenarios'),
  ];
  return {
    steps,
    completed: steps.filter((s) => s.done).length,
    total: steps.length,
    dismissed: false,
    ...over,
  };
};

/** A server whose answer the test can change, recording every call. */
const stubServer = (initial: Onboarding) => {
  let state = initial;
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.origin);
      const method = init?.method ?? 'GET';
      calls.push(`${method} ${url.pathname}${init?.body ? ` ${String(init.body)}` : ''}`);
      if (url.pathname !== '/rest/v1/onboarding') return json({ error: 'unexpected' }, 500);
      if (method === 'PATCH') {
        state = { ...state, ...(JSON.parse(String(init?.body)) as Partial<Onboarding>) };
      }
      return json(state);
    }),
  );
  return {
    calls,
    set: (next: Onboarding) => {
      state = next;
    },
  };
};

const renderStart = () =>
  renderRoutes({
    path: '/start',
    routes: [{ path: '/start', element: <StartPage /> }],
    session: signedInSession,
  });

afterEach(() => focusManager.setFocused(undefined));

describe('the getting-started checklist', () => {
  it('shows the progress, a tick for each done step and a one-click action for the others', async () => {
    stubServer(onboarding());
    renderStart();
    const bar = await screen.findByRole('progressbar', { name: 'Getting-started checklist' });
    expect(bar.getAttribute('aria-valuenow')).toBe('2');
    expect(bar.getAttribute('aria-valuemax')).toBe('4');
    expect(screen.getByText('2 of 4 done')).toBeTruthy();

    const steps = within(screen.getByRole('list', { name: 'Steps' })).getAllByRole('listitem');
    expect(steps.map((s) => s.getAttribute('data-done'))).toEqual([
      'true',
      'false',
      'false',
      'true',
    ]);
    expect(within(steps[0]!).getByText('Done')).toBeTruthy();
    expect(within(steps[0]!).queryByRole('link')).toBeNull();
    expect(within(steps[1]!).getByRole('link', { name: 'Start a chat' }).getAttribute('href')).toBe(
      '/chat',
    );
    expect(
      within(steps[2]!).getByRole('link', { name: 'Save a prompt' }).getAttribute('href'),
    ).toBe('/prompts');
    expect(document.title).toBe('Get started · Chorus');
  });

  it('asks again when the person comes back to the tab, and the bar follows', async () => {
    const server = stubServer(onboarding());
    renderStart();
    await screen.findByText('2 of 4 done');
    const next = onboarding();
    next.steps[1]!.done = true;
    server.set(next);
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    expect(await screen.findByText('3 of 4 done')).toBeTruthy();
    expect(
      screen
        .getByRole('progressbar', { name: 'Getting-started checklist' })
        .getAttribute('aria-valuenow'),
    ).toBe('3');
  });

  it('hides the checklist on Dismiss and brings it back on request', async () => {
    const server = stubServer(onboarding());
    renderStart();
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss the checklist' }));
    const show = await screen.findByRole('button', { name: 'Show the checklist' });
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(server.calls).toContain('PATCH /rest/v1/onboarding {"dismissed":true}');
    expect(screen.getByRole('link', { name: /Prompt library/ }).getAttribute('href')).toBe(
      '/prompts',
    );

    fireEvent.click(show);
    expect(await screen.findByRole('progressbar')).toBeTruthy();
    await waitFor(() =>
      expect(server.calls).toContain('PATCH /rest/v1/onboarding {"dismissed":false}'),
    );
  });

  it('says when every step is done', async () => {
    stubServer(
      onboarding({
        steps: [
          step('key', true, 'Add a key', '/copy-api-keys'),
          step('chat', true, 'Chat', '/chat'),
        ],
      }),
    );
    renderStart();
    expect(await screen.findByText(/All done/)).toBeTruthy();
    expect(screen.getByText('2 of 2 done')).toBeTruthy();
  });

  it('explains a failure and offers to try again, keeping the starting points', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ error: 'The database is not answering.' }, 503)),
    );
    renderStart();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The database is not answering.',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Help center/ })).toBeTruthy();
  });
});
