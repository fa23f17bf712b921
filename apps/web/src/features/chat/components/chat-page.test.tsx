import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@chorus/shared/messages';
import { routes } from '@/app/routes';
import { fakeLayout } from '@/test/fake-layout';
import { renderRoutes, signedInSession } from '@/test/render';

const conversation = {
  id: '0b9f6a4e-6f0e-4a53-9d0c-1b7c2f0e2a11',
  title: 'What is the capital of France?',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const replyStream = () =>
  new Response(
    [
      {
        type: 'start',
        messageId: 'a1',
        messageMetadata: {
          user_message_id: 'u1',
          assistant_message_id: 'a1',
          provider: 'openai',
          model: 'gpt-5-2025-08-07',
        },
      },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Paris.' },
      { type: 'text-end', id: 't' },
      { type: 'finish' },
    ]
      .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
      .join('') + 'data: [DONE]\n\n',
    { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } },
  );

type Handler = (url: URL, init: RequestInit | undefined) => Response | undefined;

const stubServer = (handler: Handler) => {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.origin);
      const method = init?.method ?? 'GET';
      calls.push({
        method,
        path: url.pathname,
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      const answer = handler(url, init);
      if (answer) return answer;
      if (url.pathname === '/rest/v1/api-keys/availability') {
        return json([{ provider: 'openai', enabled: true, source: 'user', key_hint: 'sk-…1234' }]);
      }
      if (url.pathname === '/rest/v1/conversations' && method === 'GET') {
        return json({ conversations: [], next_cursor: null });
      }
      return json({ error: `unexpected ${method} ${url.pathname}` }, 500);
    }),
  );
  return calls;
};

describe('the chat page', () => {
  beforeEach(() => fakeLayout());

  it('creates the conversation from the first message, moves to its URL and shows the streamed reply', async () => {
    const calls = stubServer((url, init) => {
      if (url.pathname === '/rest/v1/conversations' && init?.method === 'POST') {
        return json(conversation, 201);
      }
      if (url.pathname === '/functions/v1/chat') return replyStream();
      return undefined;
    });
    const { router } = renderRoutes({ path: '/chat', routes, session: signedInSession });

    expect(await screen.findByText('No conversations yet', { exact: false })).toBeTruthy();
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'What is the capital of France?\nAnd why?' } });
    fireEvent.keyDown(box, { key: 'Enter' });

    expect(await screen.findByText('Paris.')).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/chat/${conversation.id}`);
    expect(router.state.historyAction).toBe('REPLACE');
    expect(
      calls.find((c) => c.method === 'POST' && c.path === '/rest/v1/conversations')?.body,
    ).toEqual({
      title: 'What is the capital of France?',
    });
    expect(calls.find((c) => c.path === '/functions/v1/chat')?.body).toMatchObject({
      conversation_id: conversation.id,
      provider: 'openai',
      text: 'What is the capital of France?\nAnd why?',
    });
    // The history was seeded locally: no refetch of the messages that were just streamed.
    expect(calls.some((c) => c.path.includes('/messages'))).toBe(false);
    expect(screen.getByText('What is the capital of France?', { selector: 'a' })).toBeTruthy();
  });

  it('keeps the message, marked "Not sent", when the conversation cannot be created', async () => {
    stubServer((url, init) =>
      url.pathname === '/rest/v1/conversations' && init?.method === 'POST'
        ? json({ error: 'nope' }, 403)
        : undefined,
    );
    renderRoutes({ path: '/chat', routes, session: signedInSession });
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'Hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText(`${messages.chat.createFailed}.`)).toBeTruthy();
    expect(screen.getByText('Hello')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    // Edit takes it back into the composer.
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect((box as HTMLTextAreaElement).value).toBe('Hello');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('asks the user to sign in again when listing conversations is refused', async () => {
    stubServer((url) =>
      url.pathname === '/rest/v1/conversations' ? json({ error: 'no session' }, 401) : undefined,
    );
    renderRoutes({ path: '/chat', routes, session: signedInSession });
    expect(await screen.findByText(messages.auth.requiredSignInAgain)).toBeTruthy();
  });

  it('points to the keys page when no key is available for the provider', async () => {
    stubServer((url) =>
      url.pathname === '/rest/v1/api-keys/availability'
        ? json([{ provider: 'openai', enabled: true, source: null, key_hint: null }])
        : undefined,
    );
    renderRoutes({ path: '/chat', routes, session: signedInSession });
    expect(await screen.findByText(/No API key is available for OpenAI/)).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Add an API key' }).getAttribute('href')).toBe(
        '/copy-api-keys',
      ),
    );
  });

  describe('never losing a message', () => {
    const existing = (handler: Handler) =>
      stubServer((url, init) => {
        if (url.pathname === `/rest/v1/conversations/${conversation.id}/messages/latest`) {
          return json({ messages: [], older_cursor: null });
        }
        return handler(url, init);
      });

    const send = async (text: string) => {
      const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
      await waitFor(() => expect(box.disabled).toBe(false));
      fireEvent.change(box, { target: { value: text } });
      fireEvent.keyDown(box, { key: 'Enter' });
      return box;
    };

    it('keeps a message the network lost as "Not sent", and Retry sends it under the same id', async () => {
      let fail = true;
      const calls = existing((url) => {
        if (url.pathname !== '/functions/v1/chat') return undefined;
        if (fail) throw new TypeError('Failed to fetch');
        return replyStream();
      });
      renderRoutes({ path: `/chat/${conversation.id}`, routes, session: signedInSession });
      const box = await send('Will this arrive?');

      expect(
        await screen.findByText(/The connection failed before the message reached/),
      ).toBeTruthy();
      expect(screen.getByText('Will this arrive?')).toBeTruthy();
      expect(box.value).toBe('');

      fail = false;
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
      expect(await screen.findByText('Paris.')).toBeTruthy();
      expect(screen.queryByText('Not sent.')).toBeNull();
      const sent = calls.filter((c) => c.path === '/functions/v1/chat');
      expect(sent).toHaveLength(2);
      const [first, second] = sent.map((c) => c.body as { message_id?: string });
      expect(first?.message_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(second?.message_id).toBe(first?.message_id);
    });

    it('says plainly when offline and keeps what was sent', async () => {
      const calls = existing(() => undefined);
      const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      window.dispatchEvent(new Event('offline'));
      renderRoutes({ path: `/chat/${conversation.id}`, routes, session: signedInSession });
      expect(await screen.findByText(/You are offline\. Keep writing/)).toBeTruthy();
      await send('Sent on a train');
      expect(await screen.findByText(/You are offline, so this message was not sent/)).toBeTruthy();
      expect(calls.some((c) => c.path === '/functions/v1/chat')).toBe(false);
      onLine.mockRestore();
    });

    it('keeps the draft of each conversation through a reload', async () => {
      existing(() => undefined);
      const first = renderRoutes({
        path: `/chat/${conversation.id}`,
        routes,
        session: signedInSession,
      });
      const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
      await waitFor(() => expect(box.disabled).toBe(false));
      fireEvent.change(box, { target: { value: 'Half a thought' } });
      first.unmount();

      renderRoutes({ path: `/chat/${conversation.id}`, routes, session: signedInSession });
      const again = (await screen.findByRole('textbox', {
        name: 'Message',
      })) as HTMLTextAreaElement;
      expect(again.value).toBe('Half a thought');
    });

    it('brings back what was sent with the up arrow in an empty composer', async () => {
      existing((url) => (url.pathname === '/functions/v1/chat' ? replyStream() : undefined));
      renderRoutes({ path: `/chat/${conversation.id}`, routes, session: signedInSession });
      const box = await send('First question');
      expect(await screen.findByText('Paris.')).toBeTruthy();
      expect(box.value).toBe('');
      fireEvent.keyDown(box, { key: 'ArrowUp' });
      expect(box.value).toBe('First question');
      fireEvent.keyDown(box, { key: 'ArrowDown' });
      expect(box.value).toBe('');
    });
  });
});
