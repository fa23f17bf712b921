import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ChatRow } from '@/lib/chat/chat-rows';
import { MessageItem } from './message-item';

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
});
