import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Conversation } from '@chorus/shared/api/conversations';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import { routes } from '@/app/routes';
import { fakeLayout } from '@/test/fake-layout';
import { renderRoutes, signedInSession } from '@/test/render';
import { pendingCustomAi } from '../hooks/conversation-custom-ai';

const aiId = '3c9a7b1e-2d4f-4e8a-9b6c-1a2b3c4d5e6f';

const pirate: CustomAi = {
  id: aiId,
  name: 'Pirate tutor',
  description: 'Explains grammar like a pirate',
  avatar: '🦜',
  system_prompt: 'Answer like a pirate.',
  provider: 'anthropic',
  model: 'claude-haiku-4-5',
  parameters: { temperature: 0.3, top_p: null, max_tokens: null },
  starters: ['What is a verb?', 'Teach me a sea shanty'],
  knowledge_base_ids: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

const conversation: Conversation = {
  id: '0b9f6a4e-6f0e-4a53-9d0c-1b7c2f0e2a11',
  title: 'What is a verb?',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  pinned_at: null,
  system_prompt: '',
  knowledge_base_ids: [],
  custom_ai_id: null,
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let replies = 0;

/** A streamed reply; each has ids of its own, as the server stores each exchange anew. */
const reply = (provider: string, model: string, text: string) => {
  replies += 1;
  return new Response(
    [
      {
        type: 'start',
        messageId: `a${replies}`,
        messageMetadata: {
          user_message_id: `u${replies}`,
          assistant_message_id: `a${replies}`,
          provider,
          model,
        },
      },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: text },
      { type: 'text-end', id: 't' },
      { type: 'finish' },
    ]
      .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
      .join('') + 'data: [DONE]\n\n',
    { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } },
  );
};

type Call = { method: string; path: string; body: unknown };
type Handler = (method: string, url: URL, body: unknown) => Response | undefined;

const stubServer = (handler: Handler, listed: Conversation[] = []) => {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.origin);
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
      calls.push({ method, path: url.pathname, body });
      const answer = handler(method, url, body);
      if (answer) return answer;
      if (url.pathname === '/rest/v1/api-keys/availability') {
        return json(
          ['openai', 'anthropic'].map((provider) => ({
            provider,
            enabled: true,
            source: 'user',
            key_hint: 'sk-…1234',
          })),
        );
      }
      if (url.pathname === '/rest/v1/conversations' && method === 'GET') {
        return json({ conversations: listed, next_cursor: null });
      }
      if (url.pathname === '/rest/v1/custom-ais') return json({ custom_ais: [pirate] });
      return json({ error: `unexpected ${method} ${url.pathname}` }, 500);
    }),
  );
  return calls;
};

const writes = (calls: Call[]) =>
  calls.filter((c) => c.method !== 'GET' && !c.path.includes('get-enabled-providers'));

describe('a chat with a custom AI', () => {
  beforeEach(() => {
    fakeLayout();
    pendingCustomAi.set(null);
  });

  it('starts from /chat?custom_ai=…, sends a conversation starter and shows who answered', async () => {
    const calls = stubServer((method, url, body) => {
      if (url.pathname === '/rest/v1/conversations' && method === 'POST') {
        return json(conversation, 201);
      }
      if (url.pathname === `/rest/v1/conversations/${conversation.id}` && method === 'PATCH') {
        return json({ ...conversation, ...(body as object) });
      }
      if (url.pathname === '/functions/v1/chat') {
        return reply('anthropic', 'claude-haiku-4-5', 'Arr, a verb be a doing word.');
      }
      return undefined;
    });
    const { router } = renderRoutes({
      path: `/chat?custom_ai=${aiId}`,
      routes,
      session: signedInSession,
    });

    const starters = await screen.findByRole('list', { name: 'Conversation starters' });
    expect(screen.getByRole('heading', { name: 'Pirate tutor' })).toBeTruthy();
    expect(screen.getByText('Explains grammar like a pirate')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByLabelText<HTMLSelectElement>('Provider').value).toBe(`custom-ai:${aiId}`);
    expect(screen.getByRole('textbox', { name: 'Message' }).getAttribute('placeholder')).toBe(
      'Message Pirate tutor…',
    );

    fireEvent.click(within(starters).getByRole('button', { name: 'What is a verb?' }));
    expect(await screen.findByText('Arr, a verb be a doing word.')).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/chat/${conversation.id}`);
    expect(writes(calls).map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /rest/v1/conversations',
      `PATCH /rest/v1/conversations/${conversation.id}`,
      'POST /functions/v1/chat',
    ]);
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ custom_ai_id: aiId });
    expect(calls.find((c) => c.path === '/functions/v1/chat')?.body).toEqual({
      conversation_id: conversation.id,
      provider: 'anthropic',
      custom_ai_id: aiId,
      text: 'What is a verb?',
      message_id: expect.any(String),
    });

    const header = document.querySelector('[data-role="assistant"] p')!;
    expect(header.textContent).toBe('🦜Pirate tutor· Anthropic · claude-haiku-4-5');
    // It still talks to the custom AI once the conversation exists.
    expect(screen.getByLabelText<HTMLSelectElement>('Provider').value).toBe(`custom-ai:${aiId}`);
  });

  it('knows the custom AI of a conversation the loaded list does not hold, from its history', async () => {
    const calls = stubServer((method, url) => {
      if (url.pathname === `/rest/v1/conversations/${conversation.id}/messages/latest`) {
        return json({ messages: [], older_cursor: null, custom_ai_id: aiId });
      }
      if (url.pathname === '/functions/v1/chat')
        return reply('anthropic', 'claude-haiku-4-5', 'Arr.');
      return undefined;
    });
    renderRoutes({ path: `/chat/${conversation.id}`, routes, session: signedInSession });

    const box = await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
    const provider = screen.getByLabelText<HTMLSelectElement>('Provider');
    await waitFor(() => expect(provider.value).toBe(`custom-ai:${aiId}`));
    await waitFor(() => expect(box.disabled).toBe(false));
    fireEvent.change(box, { target: { value: 'Ahoy' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('Arr.')).toBeTruthy();
    expect(calls.find((c) => c.path === '/functions/v1/chat')?.body).toMatchObject({
      custom_ai_id: aiId,
    });
  });

  it('sends custom_ai_id with every message of a conversation that talks to it, until a plain model is picked', async () => {
    const withPirate = { ...conversation, custom_ai_id: aiId };
    const calls = stubServer(
      (method, url, body) => {
        if (url.pathname === `/rest/v1/conversations/${conversation.id}/messages/latest`) {
          return json({ messages: [], older_cursor: null });
        }
        if (url.pathname === `/rest/v1/conversations/${conversation.id}` && method === 'PATCH') {
          return json({ ...withPirate, ...(body as object) });
        }
        if (url.pathname === '/functions/v1/chat') {
          return (body as { custom_ai_id?: string }).custom_ai_id
            ? reply('anthropic', 'claude-haiku-4-5', 'Arr.')
            : reply('openai', 'gpt-5-mini', 'Hello.');
        }
        return undefined;
      },
      [withPirate],
    );
    renderRoutes({ path: `/chat/${conversation.id}`, routes, session: signedInSession });

    const box = await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Message' });
    const provider = screen.getByLabelText<HTMLSelectElement>('Provider');
    await waitFor(() => expect(provider.value).toBe(`custom-ai:${aiId}`));
    await waitFor(() => expect(box.disabled).toBe(false));
    fireEvent.change(box, { target: { value: 'Ahoy' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('Arr.')).toBeTruthy();
    expect(calls.find((c) => c.path === '/functions/v1/chat')?.body).toMatchObject({
      provider: 'anthropic',
      custom_ai_id: aiId,
    });

    fireEvent.change(provider, { target: { value: 'openai' } });
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ custom_ai_id: null }),
    );
    await waitFor(() => expect(provider.value).toBe('openai'));
    fireEvent.change(box, { target: { value: 'Hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText('Hello.')).toBeTruthy();
    const plain = calls.filter((c) => c.path === '/functions/v1/chat').at(-1)?.body;
    expect(plain).toMatchObject({ provider: 'openai', text: 'Hello' });
    expect(plain).not.toHaveProperty('custom_ai_id');
    // The earlier reply is still the custom AI's; the new one is the plain model's.
    const headers = [...document.querySelectorAll('[data-role="assistant"] > p:first-child')].map(
      (p) => p.textContent,
    );
    expect(headers.at(-1)).toMatch(/^OpenAI · /);
  });
});
