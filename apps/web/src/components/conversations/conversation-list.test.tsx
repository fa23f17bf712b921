import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Conversation } from '@chorus/shared/api/conversations';
import { pinMessages } from '@chorus/shared/share-messages';
import { routes } from '@/app/routes';
import { fakeLayout } from '@/test/fake-layout';
import { renderRoutes, signedInSession } from '@/test/render';

const conversation = (n: number, pinnedAt: string | null = null): Conversation => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  title: `Topic ${n}`,
  created_at: `2026-01-0${n}T00:00:00.000Z`,
  updated_at: `2026-01-0${n}T00:00:00.000Z`,
  pinned_at: pinnedAt,
  system_prompt: '',
  knowledge_base_ids: [],
  custom_ai_id: null,
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Patch = (id: string, body: { pinned?: boolean }) => Promise<Response>;

/** The list answers `rows`; a PATCH is answered by `patch`. */
const stubServer = (rows: Conversation[], patch: Patch) => {
  const patches: { id: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.origin);
      const method = init?.method ?? 'GET';
      if (url.pathname === '/rest/v1/conversations' && method === 'GET') {
        return json({ conversations: rows, next_cursor: null });
      }
      const match = /^\/rest\/v1\/conversations\/([^/]+)$/.exec(url.pathname);
      if (match && method === 'PATCH') {
        const body = JSON.parse(String(init?.body)) as { pinned?: boolean };
        patches.push({ id: match[1]!, body });
        return patch(match[1]!, body);
      }
      if (url.pathname === '/rest/v1/api-keys/availability') return json([]);
      return json({ error: `unexpected ${method} ${url.pathname}` }, 500);
    }),
  );
  return patches;
};

/** The sidebar's list, top to bottom: group headings and conversation titles. */
const listed = () => {
  const list = screen.getByRole('region', { name: 'Conversations' });
  return within(list)
    .getAllByRole('listitem')
    .filter((item) => item.closest('nav') === null)
    .map((item) => item.querySelector('a')?.textContent ?? item.textContent);
};

const openMenuOf = async (title: string) => {
  fireEvent.keyDown(screen.getByRole('button', { name: pinMessages.moreActions(title) }), {
    key: 'Enter',
  });
  return screen.findByRole('menu');
};

describe('pinned conversations in the list', () => {
  beforeEach(() => fakeLayout({ rowPx: 40 }));

  it('come first, under "Pinned", with the others under "Recent"', async () => {
    stubServer(
      [conversation(1, '2026-02-01T00:00:00.000Z'), conversation(3), conversation(2)],
      () => Promise.resolve(json({})),
    );
    renderRoutes({ path: '/chat', routes, session: signedInSession });
    await screen.findByRole('link', { name: /Topic 3/ });
    expect(listed()).toEqual([
      pinMessages.pinnedGroup,
      `Topic 1${pinMessages.pinnedSuffix}`,
      pinMessages.othersGroup,
      'Topic 3',
      'Topic 2',
    ]);
  });

  it('moves at once under "Pinned" when pinned, before the server answers', async () => {
    let answer: (response: Response) => void = () => {};
    const patches = stubServer(
      [conversation(3), conversation(2), conversation(1)],
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    renderRoutes({ path: '/chat', routes, session: signedInSession });
    await screen.findByRole('link', { name: 'Topic 2' });
    expect(listed()).toEqual(['Topic 3', 'Topic 2', 'Topic 1']);

    const menu = await openMenuOf('Topic 2');
    fireEvent.click(within(menu).getByRole('menuitem', { name: pinMessages.pin }));

    await waitFor(() =>
      expect(listed()).toEqual([
        pinMessages.pinnedGroup,
        `Topic 2${pinMessages.pinnedSuffix}`,
        pinMessages.othersGroup,
        'Topic 3',
        'Topic 1',
      ]),
    );
    expect(patches).toEqual([{ id: conversation(2).id, body: { pinned: true } }]);

    answer(json(conversation(2, '2026-03-01T00:00:00.000Z')));
    // Unpinning puts it back among the others, newest first.
    const again = await openMenuOf('Topic 2');
    fireEvent.click(within(again).getByRole('menuitem', { name: pinMessages.unpin }));
    await waitFor(() => expect(listed()).toEqual(['Topic 3', 'Topic 2', 'Topic 1']));
  });

  it('goes back where it was, with the server’s reason, when pinning fails', async () => {
    stubServer([conversation(2), conversation(1)], () =>
      Promise.resolve(json({ error: 'The database is busy. Try again in a moment.' }, 503)),
    );
    renderRoutes({ path: '/chat', routes, session: signedInSession });
    await screen.findByRole('link', { name: 'Topic 1' });

    const menu = await openMenuOf('Topic 1');
    fireEvent.click(within(menu).getByRole('menuitem', { name: pinMessages.pin }));

    expect(await screen.findByText(pinMessages.pinFailed)).toBeTruthy();
    expect(screen.getByText('The database is busy. Try again in a moment.')).toBeTruthy();
    expect(listed()).toEqual(['Topic 2', 'Topic 1']);
  });
});
