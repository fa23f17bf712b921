import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ShareCreated, ShareStatus } from '@chorus/shared/api/conversation-sharing';
import { shareMessages } from '@chorus/shared/share-messages';
import { formatDateTime } from '@/lib/format';
import { ShareDialog } from './share-dialog';

const conversation = { id: '0b9f6a4e-6f0e-4a53-9d0c-1b7c2f0e2a11', title: 'Trip to Lisbon' };
const sharePath = `/rest/v1/conversations/${conversation.id}/share`;
const token = 'T'.repeat(43);

const json = (body: unknown, status = 200) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** Answers the share endpoints as the server would, from `status`; records every call. */
const stubShareApi = ({
  status,
  create = () =>
    json(
      {
        url: `https://chorus.example/share/${token}`,
        token,
        created_at: '2026-05-01T10:00:00.000Z',
        message_count: 4,
      } satisfies ShareCreated,
      201,
    ),
}: {
  status: ShareStatus;
  create?: () => Response;
}) => {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), window.location.origin);
      const method = init?.method ?? 'GET';
      calls.push(`${method} ${url.pathname}`);
      if (url.pathname !== sharePath) return json({ error: 'unexpected' }, 500);
      if (method === 'GET') return json(status);
      if (method === 'POST') return create();
      if (method === 'DELETE') return json(null, 204);
      return json({ error: 'unexpected' }, 500);
    }),
  );
  return calls;
};

const renderDialog = () => {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={queryClient}>
      <ShareDialog conversation={conversation} open onClose={onClose} />
    </QueryClientProvider>,
  );
  return { onClose };
};

describe('the share dialog', () => {
  it('says what a link shows, creates one and shows its full address to copy, once', async () => {
    const calls = stubShareApi({ status: { active: false } });
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderDialog();

    expect(screen.getByRole('heading', { name: shareMessages.dialogTitle })).toBeTruthy();
    expect(screen.getByText(shareMessages.intro)).toBeTruthy();
    expect(await screen.findByText(shareMessages.notShared)).toBeTruthy();
    expect(screen.queryByRole('button', { name: shareMessages.revoke })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: shareMessages.create }));

    const link = await screen.findByLabelText<HTMLInputElement>(shareMessages.linkLabel);
    const url = `${window.location.origin}/share/${token}`;
    expect(link.value).toBe(url);
    expect(screen.getByText(shareMessages.shownOnce)).toBeTruthy();
    expect(screen.getByText(shareMessages.audience(4))).toBeTruthy();
    expect(calls).toContain(`POST ${sharePath}`);

    fireEvent.click(screen.getByRole('button', { name: shareMessages.copy }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(url));
    expect(await screen.findByRole('button', { name: shareMessages.copied })).toBeTruthy();
  });

  it('describes an active link, and revokes it only once confirmed', async () => {
    const createdAt = '2026-04-02T08:30:00.000Z';
    const calls = stubShareApi({
      status: { active: true, created_at: createdAt, message_count: 1 },
    });
    renderDialog();

    expect(
      await screen.findByText(shareMessages.active(formatDateTime(createdAt), 1), { exact: false }),
    ).toBeTruthy();
    expect(screen.getByText(shareMessages.replaceNote)).toBeTruthy();
    // The token was answered only when the link was created: no address is shown now.
    expect(screen.queryByLabelText(shareMessages.linkLabel)).toBeNull();
    expect(screen.getByRole('button', { name: shareMessages.createNew })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: shareMessages.revoke }));
    expect(screen.getByRole('heading', { name: shareMessages.stopTitle })).toBeTruthy();
    expect(screen.getByText(shareMessages.stopBody)).toBeTruthy();
    expect(calls).not.toContain(`DELETE ${sharePath}`);

    // Cancel goes back without revoking.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { name: shareMessages.dialogTitle })).toBeTruthy();
    expect(calls).not.toContain(`DELETE ${sharePath}`);

    fireEvent.click(screen.getByRole('button', { name: shareMessages.revoke }));
    fireEvent.click(screen.getByRole('button', { name: shareMessages.revoke }));
    expect(await screen.findByText(shareMessages.notShared)).toBeTruthy();
    expect(calls).toContain(`DELETE ${sharePath}`);
    expect(screen.getByRole('button', { name: shareMessages.create })).toBeTruthy();
  });

  it('replaces an active link with a new one, shown once', async () => {
    stubShareApi({
      status: { active: true, created_at: '2026-04-02T08:30:00.000Z', message_count: 1 },
    });
    renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: shareMessages.createNew }));
    const link = await screen.findByLabelText<HTMLInputElement>(shareMessages.linkLabel);
    expect(link.value).toBe(`${window.location.origin}/share/${token}`);
  });

  it('says why when there is nothing to share yet', async () => {
    stubShareApi({
      status: { active: false },
      create: () =>
        json({ code: 'shares:nothing_to_share', error: shareMessages.nothingToShare }, 409),
    });
    renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: shareMessages.create }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      `${shareMessages.createFailed}. ${shareMessages.nothingToShare}`,
    );
    expect(screen.queryByLabelText(shareMessages.linkLabel)).toBeNull();
  });
});
