import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { Source } from '@chorus/shared/api/conversations';
import type { ChatRow } from '@/lib/chat/chat-rows';
import { MessageItem } from './message-item';
import { passageGoneText } from './passage-dialog';

const row = (over: Partial<ChatRow>): ChatRow => ({
  id: 'a1',
  role: 'assistant',
  content: 'Here is what I found.',
  status: 'complete',
  provider: 'openai',
  model: 'gpt-4.1',
  sources: [],
  toolCalls: [],
  attachments: [],
  stored: true,
  ...over,
});

const show = (r: ChatRow) =>
  render(
    <MessageItem
      row={r}
      canRegenerate={false}
      canEdit={false}
      onRegenerate={() => undefined}
      onEdit={() => undefined}
    />,
  );

describe('a message in the chat engine', () => {
  it('shows each tool call with its status, and its arguments and result as text', () => {
    const { container } = show(
      row({
        toolCalls: [
          {
            id: 'c1',
            name: 'web_fetch',
            input: { url: 'https://example.com' },
            state: 'done',
            output: '<img src=x onerror="alert(1)">',
          },
          {
            id: 'c2',
            name: 'send_email',
            input: { to: 'ann@example.com' },
            state: 'awaiting-approval',
          },
          {
            id: 'c3',
            name: 'search',
            input: {},
            state: 'error',
            errorText: 'Timed out after 10 s',
          },
        ],
      }),
    );
    expect(screen.getByText('web_fetch')).toBeTruthy();
    expect(screen.getByText('Waiting for your approval')).toBeTruthy();
    expect(screen.getByText('Failed')).toBeTruthy();
    fireEvent.click(screen.getByText('web_fetch'));
    expect(screen.getByText(/"url": "https:\/\/example.com"/)).toBeTruthy();
    // A tool's output is data: its markup is text on the page, never an element.
    expect(screen.getByText('<img src=x onerror="alert(1)">')).toBeTruthy();
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('Timed out after 10 s')).toBeTruthy();
  });

  it('cites web pages as links and document passages with their snippet', () => {
    show(
      row({
        sources: [
          { url: 'https://example.com/guide', title: 'The guide' },
          {
            url: '',
            title: 'Handbook',
            document_name: 'handbook.pdf',
            snippet: 'Leave is 25 days.',
          },
          { url: 'javascript:alert(1)', title: 'Bad link' },
        ],
      }),
    );
    const link = screen.getByRole('link', { name: 'The guide' });
    expect(link.getAttribute('href')).toBe('https://example.com/guide');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(screen.getByText('Handbook')).toBeTruthy();
    expect(screen.getByText('Leave is 25 days.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Bad link' })).toBeNull();
    expect(screen.getByText('Bad link')).toBeTruthy();
  });

  it('lists the files sent with a message', () => {
    show(
      row({
        role: 'user',
        content: 'Summarise this',
        attachments: [
          {
            id: 'f1',
            name: 'report.pdf',
            contentType: 'application/pdf',
            sizeBytes: 2_097_152,
            url: 'https://app.test/storage/v1/object/1?sig=x',
          },
          { id: 'f2', name: 'notes.txt', contentType: 'text/plain' },
        ],
      }),
    );
    const list = screen.getByRole('list', { name: 'Attachments' });
    expect(list.textContent).toContain('report.pdf');
    expect(list.textContent).toContain('2 MB');
    expect(screen.getByRole('link', { name: /report\.pdf/ }).getAttribute('href')).toContain(
      '/storage/v1/object/1',
    );
    expect(screen.queryByRole('link', { name: /notes\.txt/ })).toBeNull();
  });

  it('pages between the versions of a regenerated answer', () => {
    const picked: string[] = [];
    render(
      <MessageItem
        row={row({ id: 'v2', version: { index: 2, ids: ['v1', 'v2', 'v3'] } })}
        canRegenerate={false}
        canEdit={false}
        onRegenerate={() => undefined}
        onEdit={() => undefined}
        onSelectVersion={(id) => picked.push(id)}
      />,
    );
    expect(screen.getByTestId('answer-version').textContent).toBe('2 / 3');
    fireEvent.click(screen.getByRole('button', { name: 'Previous version' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next version' }));
    expect(picked).toEqual(['v1', 'v3']);
  });

  it('offers no step past the first or last version', () => {
    render(
      <MessageItem
        row={row({ id: 'v1', version: { index: 1, ids: ['v1', 'v2'] } })}
        canRegenerate={false}
        canEdit={false}
        onRegenerate={() => undefined}
        onEdit={() => undefined}
        onSelectVersion={() => undefined}
      />,
    );
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Previous version' }).disabled,
    ).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next version' }).disabled).toBe(
      false,
    );
  });

  it('shows the stored reason of a failed reply, with a link to the API keys for a key problem', () => {
    render(
      <MemoryRouter>
        <MessageItem
          canRegenerate={false}
          canEdit={false}
          onRegenerate={() => undefined}
          onEdit={() => undefined}
          row={row({
            content: '',
            status: 'error',
            failure: {
              reason: 'OpenAI rejected the API key. Check it on the API keys page.',
              code: 'provider:auth',
            },
          })}
        />
      </MemoryRouter>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(
      'OpenAI rejected the API key. Check it on the API keys page.',
    );
    expect(alert.textContent).not.toContain('What arrived');
    expect(screen.getByRole('link', { name: /API keys/ })).toBeTruthy();
  });

  describe('knowledge citations', () => {
    const passage: Source = {
      url: '',
      title: 'handbook.pdf',
      document_name: 'handbook.pdf',
      document_id: 'd1',
      chunk_id: 'c1',
      knowledge_base_id: 'kb1',
      page: 3,
      heading_path: [],
      snippet: 'Staff get 25 days…',
      index: 1,
    };

    const showCited = (chunk: Response) => {
      const fetch = vi.fn(async () => chunk);
      vi.stubGlobal('fetch', fetch);
      const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      render(
        <QueryClientProvider client={queryClient}>
          <MessageItem
            row={row({
              content: 'You get 25 days of leave [1], and more after five years [2].',
              sources: [passage],
            })}
            canRegenerate={false}
            canEdit={false}
            onRegenerate={() => undefined}
            onEdit={() => undefined}
          />
        </QueryClientProvider>,
      );
      return fetch;
    };

    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      });

    it('turns a [1] that matches a passage into a button that opens the whole passage', async () => {
      const fetch = showCited(
        json({
          id: 'c1',
          document_id: 'd1',
          document_name: 'handbook.pdf',
          knowledge_base_id: 'kb1',
          position: { index: 4, page: 3, heading_path: [], rows: null },
          text: 'Staff get 25 days of annual leave, plus public holidays.',
        }),
      );
      const marker = await screen.findByRole('button', { name: 'Open source 1: handbook.pdf' });
      // [2] cites nothing the reply has: it stays text.
      expect(screen.getByText(/and more after five years \[2\]/)).toBeTruthy();
      fireEvent.click(marker);
      const dialog = await screen.findByRole('dialog', { name: 'handbook.pdf' });
      expect(
        await within(dialog).findByText('Staff get 25 days of annual leave, plus public holidays.'),
      ).toBeTruthy();
      expect(within(dialog).getByText('Page 3')).toBeTruthy();
      expect(fetch).toHaveBeenCalledWith(
        '/rest/v1/knowledge-bases/kb1/chunks/c1',
        expect.anything(),
      );
    });

    it('opens the same passage from the numbered list of sources', async () => {
      showCited(json({ error: 'No such passage', code: 'knowledge:not_found' }, 404));
      fireEvent.click(screen.getByRole('button', { name: 'Open source 1: handbook.pdf, Page 3' }));
      const dialog = await screen.findByRole('dialog', { name: 'handbook.pdf' });
      // The chunk is gone (its document was deleted): the snippet the reply kept stands in.
      expect(await within(dialog).findByText(passageGoneText, { exact: false })).toBeTruthy();
      expect(within(dialog).getByText('Staff get 25 days…')).toBeTruthy();
    });
  });
});
