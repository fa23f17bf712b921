import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { SharedConversation } from '@chorus/shared/api/conversation-sharing';
import { shareMessages } from '@chorus/shared/share-messages';
import { routes } from '@/app/routes';
import { formatDate } from '@/lib/format';
import { renderRoutes } from '@/test/render';

const token = 'a'.repeat(43);

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const stubShared = (answer: () => Response) => {
  const calls: { path: string; credentials: RequestCredentials | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.origin);
      calls.push({ path: url.pathname, credentials: init?.credentials });
      if (url.pathname === `/rest/v1/shared/${token}`) return answer();
      return json({ error: `unexpected ${url.pathname}` }, 404);
    }),
  );
  return calls;
};

const shared: SharedConversation = {
  title: 'Trip to Lisbon',
  shared_at: '2026-05-01T10:00:00.000Z',
  messages: [
    {
      role: 'user',
      content: 'Plan <b>two</b> days',
      provider: null,
      model: null,
      status: 'complete',
      created_at: '2026-05-01T09:00:00.000Z',
    },
    {
      role: 'assistant',
      content: '## Day 1\n\n**Alfama** <img src=x onerror="alert(1)">',
      provider: 'openai',
      model: 'gpt-5',
      status: 'interrupted',
      created_at: '2026-05-01T09:00:05.000Z',
    },
  ],
};

describe('a shared conversation', () => {
  it('shows the title, when it was shared and the messages, read-only, to a guest', async () => {
    const calls = stubShared(() => json(shared));
    renderRoutes({ path: `/share/${token}`, routes });

    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe('Trip to Lisbon');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByText(shareMessages.sharedOn(formatDate(shared.shared_at)))).toBeTruthy();

    const list = screen.getByRole('list', { name: 'Messages' });
    // The person's words as written: markup in them is text.
    expect(within(list).getByText('Plan <b>two</b> days')).toBeTruthy();
    // The model's as markdown, never as HTML.
    expect((await within(list).findByText('Alfama')).tagName).toBe('STRONG');
    expect(within(list).getByRole('heading', { name: 'Day 1' })).toBeTruthy();
    expect(list.querySelector('img')).toBeNull();
    expect(within(list).getByText('OpenAI')).toBeTruthy();
    expect(within(list).getByText(shareMessages.cutOff)).toBeTruthy();
    expect(screen.getByRole('link', { name: shareMessages.tryChorus })).toBeTruthy();

    expect(calls.map((c) => c.path)).toContain(`/rest/v1/shared/${token}`);
  });

  it('says plainly that a revoked or unknown link does not work, with a way home', async () => {
    stubShared(() => json({ code: 'shares:not_found', error: shareMessages.unavailable }, 404));
    renderRoutes({ path: `/share/${token}`, routes });

    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe(shareMessages.unavailableTitle);
    expect(screen.getByText(shareMessages.unavailable)).toBeTruthy();
    expect(screen.getByRole('link', { name: shareMessages.home }).getAttribute('href')).toBe('/');
  });
});
