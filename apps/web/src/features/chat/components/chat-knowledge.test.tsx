import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Conversation } from '@chorus/shared/api/conversations';
import type { KnowledgeBaseList } from '@chorus/shared/api/knowledge';
import { routes } from '@/app/routes';
import { fakeLayout } from '@/test/fake-layout';
import { renderRoutes, signedInSession } from '@/test/render';
import { pendingKnowledgeBases } from '../hooks/conversation-knowledge';

const conversation: Conversation = {
  id: '0b9f6a4e-6f0e-4a53-9d0c-1b7c2f0e2a11',
  title: 'Leave policy',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  pinned_at: null,
  system_prompt: '',
  knowledge_base_ids: [],
  custom_ai_id: null,
};
const baseId = '6d1c0f9e-0d3b-4d7e-9a55-2f6f0b1c2d3e';
const fileId = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';

const bases: KnowledgeBaseList = {
  vectors_available: true,
  knowledge_bases: [
    {
      id: baseId,
      name: 'Team handbook',
      description: '',
      embedding_provider: 'openai',
      embedding_model: 'text-embedding-3-small',
      reembedding: null,
      search_mode: 'hybrid',
      search_notice: null,
      document_count: 3,
      chunk_count: 40,
      size_bytes: 1000,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    },
  ],
};

const citation = {
  url: '',
  title: 'handbook.pdf',
  document_name: 'handbook.pdf',
  document_id: 'd1',
  chunk_id: 'c1',
  knowledge_base_id: baseId,
  page: 3,
  heading_path: [],
  snippet: 'Staff get 25 days of annual leave.',
  score: 0.03,
  index: 1,
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A reply that cites a passage: the server sends the citations as a data part while streaming. */
const citedReply = () =>
  new Response(
    [
      {
        type: 'start',
        messageId: 'a1',
        messageMetadata: {
          user_message_id: 'u1',
          assistant_message_id: 'a1',
          provider: 'openai',
          model: 'gpt-5',
        },
      },
      { type: 'data-citations', data: [citation] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Staff get 25 days of leave [1].' },
      { type: 'text-end', id: 't' },
      { type: 'finish' },
    ]
      .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
      .join('') + 'data: [DONE]\n\n',
    { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } },
  );

type Call = { method: string; path: string; search: string; body: unknown; headers: Headers };
type Handler = (method: string, url: URL, init: RequestInit | undefined) => Response | undefined;

const stubServer = (handler: Handler) => {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.origin);
      const method = init?.method ?? 'GET';
      const body = init?.body;
      calls.push({
        method,
        path: url.pathname,
        search: url.search,
        body: typeof body === 'string' ? JSON.parse(body) : body,
        headers: new Headers(init?.headers),
      });
      const answer = handler(method, url, init);
      if (answer) return answer;
      if (url.pathname === '/rest/v1/api-keys/availability') {
        return json([{ provider: 'openai', enabled: true, source: 'user', key_hint: 'sk-…1234' }]);
      }
      if (url.pathname === '/rest/v1/conversations' && method === 'GET') {
        return json({ conversations: [], next_cursor: null });
      }
      if (url.pathname === '/rest/v1/knowledge-bases') return json(bases);
      return json({ error: `unexpected ${method} ${url.pathname}` }, 500);
    }),
  );
  return calls;
};

const typeAndSend = async (text: string) => {
  const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
  await waitFor(() => expect(box.disabled).toBe(false));
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: 'Enter' });
};

describe('knowledge and files in the chat', () => {
  // The chat route is a lazy page: when this file is the first in its worker to reach it, Vite
  // transforms the whole chat module graph on that first render, which on a busy 2-core CI
  // machine took longer than a findBy's 5 s. Importing it here puts that work outside the waits.
  beforeAll(async () => {
    await Promise.all([import('@/app/layouts/workspace-layout'), import('./chat-page')]);
  }, 60_000);

  beforeEach(() => {
    fakeLayout();
    pendingKnowledgeBases.set([]);
  });

  it('attaches a picked knowledge base to a new chat before its first message, and shows the live citations', async () => {
    const calls = stubServer((method, url) => {
      if (url.pathname === '/rest/v1/conversations' && method === 'POST') {
        return json(conversation, 201);
      }
      if (url.pathname === `/rest/v1/conversations/${conversation.id}` && method === 'PATCH') {
        return json({ ...conversation, knowledge_base_ids: [baseId] });
      }
      if (url.pathname === '/functions/v1/chat') return citedReply();
      return undefined;
    });
    renderRoutes({ path: '/chat', routes, session: signedInSession });

    fireEvent.click(await screen.findByRole('button', { name: 'Knowledge' }));
    fireEvent.click(await screen.findByRole('checkbox', { name: /Team handbook/ }));
    const chips = await screen.findByRole('list', { name: 'Knowledge bases in this chat' });
    expect(within(chips).getByText('Team handbook')).toBeTruthy();

    await typeAndSend('How much leave do I get?');
    const marker = await screen.findByRole('button', { name: 'Open source 1: handbook.pdf' });
    expect(marker).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Sources' }).textContent).toContain('Page 3');

    const order = calls
      .filter((c) => c.method !== 'GET' && !c.path.includes('get-enabled-providers'))
      .map((c) => `${c.method} ${c.path}`);
    expect(order).toEqual([
      'POST /rest/v1/conversations',
      `PATCH /rest/v1/conversations/${conversation.id}`,
      'POST /functions/v1/chat',
    ]);
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      knowledge_base_ids: [baseId],
    });
    // The chip stays with the conversation it now belongs to.
    expect(
      within(screen.getByRole('list', { name: 'Knowledge bases in this chat' })).getByText(
        'Team handbook',
      ),
    ).toBeTruthy();
  });

  it('uploads a file at once, sends its id with the message and shows it on the message', async () => {
    const calls = stubServer((method, url) => {
      if (url.pathname === `/rest/v1/conversations/${conversation.id}/messages/latest`) {
        return json({ messages: [], older_cursor: null });
      }
      if (url.pathname === '/storage/v1/files' && method === 'POST') {
        return json(
          {
            id: fileId,
            name: 'notes.md',
            content_type: 'text/markdown',
            size_bytes: 2048,
            sha256: 'x',
            purpose: 'attachment',
            conversation_id: null,
            created_at: '2026-01-01T00:00:00.000Z',
          },
          201,
        );
      }
      if (url.pathname === '/functions/v1/chat') return citedReply();
      return undefined;
    });
    renderRoutes({ path: `/chat/${conversation.id}`, routes, session: signedInSession });

    // A Markdown file often comes with no type from the browser: its extension decides.
    const file = new File(['# Notes'], 'notes.md', { type: '' });
    fireEvent.change(await screen.findByLabelText('Files to attach'), {
      target: { files: [file] },
    });
    const pending = await screen.findByRole('list', { name: 'Files to send' });
    await waitFor(() =>
      expect(within(pending).getByRole('listitem').getAttribute('data-state')).toBe('ready'),
    );
    const upload = calls.find((c) => c.path === '/storage/v1/files');
    expect(upload?.search).toBe('?purpose=attachment');
    expect(upload?.headers.get('Content-Type')).toBe('text/markdown');
    expect(upload?.headers.get('X-File-Name')).toBe('notes.md');
    expect(upload?.body).toBe(file);

    await typeAndSend('Summarise my notes');
    await screen.findByText('Staff get 25 days of leave', { exact: false });
    expect(calls.find((c) => c.path === '/functions/v1/chat')?.body).toMatchObject({
      text: 'Summarise my notes',
      attachment_ids: [fileId],
    });
    expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull();
    const sent = screen.getByRole('list', { name: 'Attachments' });
    expect(sent.textContent).toContain('notes.md');
    expect(sent.textContent).toContain('2 KB');
  });

  it('shows a refused file as an error chip with the server’s reason, and waits for uploads before sending', async () => {
    let finishUpload: (response: Response) => void = () => undefined;
    stubServer((method, url) => {
      if (url.pathname === `/rest/v1/conversations/${conversation.id}/messages/latest`) {
        return json({ messages: [], older_cursor: null });
      }
      return undefined;
    });
    const base = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation((input, init) => {
      const url = new URL(String(input), window.location.origin);
      if (url.pathname !== '/storage/v1/files') return base(input, init);
      const name = new Headers(init?.headers).get('X-File-Name');
      if (name === 'big.pdf') {
        return Promise.resolve(
          json({ error: 'The file is larger than your plan allows (10 MB).' }, 413),
        );
      }
      return new Promise<Response>((resolve) => {
        finishUpload = resolve;
      });
    });
    renderRoutes({ path: `/chat/${conversation.id}`, routes, session: signedInSession });
    fireEvent.change(await screen.findByLabelText('Files to attach'), {
      target: {
        files: [
          new File(['x'], 'big.pdf', { type: 'application/pdf' }),
          new File(['x'], 'slow.txt', { type: 'text/plain' }),
          new File(['x'], 'tool.exe', { type: 'application/x-msdownload' }),
        ],
      },
    });
    const list = await screen.findByRole('list', { name: 'Files to send' });
    const chip = (name: string) =>
      within(list)
        .getAllByRole('listitem')
        .find((item) => item.textContent?.includes(name))!;
    await waitFor(() => expect(chip('big.pdf').getAttribute('data-state')).toBe('failed'));
    expect(within(chip('big.pdf')).getByRole('alert').textContent).toBe(
      'The file is larger than your plan allows (10 MB).',
    );
    expect(chip('tool.exe').getAttribute('data-state')).toBe('failed');
    expect(chip('tool.exe').textContent).toContain('Chorus cannot take this type of file');
    expect(chip('slow.txt').getAttribute('data-state')).toBe('uploading');

    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'Read these' } });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send message' }).disabled).toBe(
      true,
    );
    fireEvent.click(within(chip('tool.exe')).getByRole('button', { name: 'Remove tool.exe' }));
    expect(within(list).queryByText('tool.exe')).toBeNull();

    finishUpload(
      json({ id: fileId, name: 'slow.txt', content_type: 'text/plain', size_bytes: 1 }, 201),
    );
    await waitFor(() => expect(chip('slow.txt').getAttribute('data-state')).toBe('ready'));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send message' }).disabled).toBe(
      false,
    );
  });
});
