import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { EmailOutboxItem } from '@chorus/shared/api/email';
import { outboxMessages } from '@chorus/shared/admin-messages';
import { hiddenContentMarker } from '@chorus/shared/email';
import { EmailOutboxPage } from './email-outbox-page';

const item: EmailOutboxItem = {
  id: '6f1c2d3e-0000-4000-8000-000000000001',
  to: ['ann@example.com'],
  from: 'Chorus <no-reply@chorus.local>',
  reply_to: null,
  subject: 'Welcome to Chorus',
  template: 'welcome',
  status: 'failed',
  attempts: 5,
  last_error: '451 Mailbox busy',
  created_at: '2026-01-01T00:00:00.000Z',
  sent_at: null,
  content_hidden: false,
  html: '<p>Hi</p><script>parent.alert(1)</script>',
  text: 'Hi',
};
const { html: _html, text: _text, ...summary } = item;

describe('EmailOutboxPage', () => {
  it('lists mail, filters by status, and shows an opened mail’s HTML only in a sandboxed frame', async () => {
    const fetchSpy = vi.fn(async (url: string) =>
      url.includes(`/${item.id}`)
        ? Response.json(item)
        : Response.json({ emails: [summary], total: 1 }),
    );
    vi.stubGlobal('fetch', fetchSpy);
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <EmailOutboxPage />
      </QueryClientProvider>,
    );

    expect(await screen.findByText('451 Mailbox busy')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Failed' }));
    await waitFor(() =>
      expect(fetchSpy).toHaveBeenCalledWith(
        expect.stringContaining('/rest/v1/admin/email-outbox?limit=50&offset=0&status=failed'),
        expect.anything(),
      ),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const frame = (await screen.findByTitle('E-mail: Welcome to Chorus')) as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toBe(item.html);
    expect(document.querySelector('script')).toBeNull();
    expect(screen.queryByText(outboxMessages.contentHiddenTitle)).toBeNull();
  });

  it('says plainly when a user’s own content is hidden, and why', async () => {
    const hidden: EmailOutboxItem = {
      ...item,
      subject: hiddenContentMarker,
      template: 'run_completed',
      status: 'pending',
      last_error: null,
      content_hidden: true,
      html: `<p>${hiddenContentMarker}</p>`,
      text: hiddenContentMarker,
    };
    const { html: _h, text: _t, ...hiddenSummary } = hidden;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.includes(`/${hidden.id}`)
          ? Response.json(hidden)
          : Response.json({ emails: [hiddenSummary], total: 1 }),
      ),
    );
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <EmailOutboxPage />
      </QueryClientProvider>,
    );
    expect(await screen.findByText(outboxMessages.contentHiddenBadge)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const note = await screen.findByRole('note');
    expect(note.textContent).toContain(outboxMessages.contentHiddenTitle);
    expect(note.textContent).toContain('Only a super admin can read it.');
  });
});
