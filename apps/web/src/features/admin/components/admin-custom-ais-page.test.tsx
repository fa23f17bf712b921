import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminCustomAi } from '@chorus/shared/api/custom-ais';
import { fakeApi, json } from '@/test/fake-api';
import { renderRoutes, signedInSession } from '@/test/render';
import { AdminCustomAisPage } from './admin-custom-ais-page';

const aiId = '3c9a7b1e-2d4f-4e8a-9b6c-1a2b3c4d5e6f';

const shared = (over: Partial<AdminCustomAi> = {}): AdminCustomAi => ({
  id: aiId,
  name: 'Pirate tutor',
  description: 'Explains grammar like a pirate',
  avatar: '🦜',
  system_prompt: '<img src=x onerror="alert(1)"> Answer like a pirate.',
  provider: 'openai',
  model: 'gpt-5-mini',
  parameters: { temperature: null, top_p: null, max_tokens: null },
  starters: ['What is a verb?'],
  knowledge_base_ids: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  share_status: 'submitted',
  share_note: '',
  category: 'Learning',
  owned: false,
  user_id: 'user-ann',
  author_email: 'ann@example.com',
  featured: false,
  share_requested_at: '2026-01-02T00:00:00.000Z',
  published_at: null,
  ...over,
});

const renderPage = () =>
  renderRoutes({
    path: '/admin/custom-ais',
    routes: [{ path: '/admin/custom-ais', element: <AdminCustomAisPage /> }],
    session: signedInSession,
  });

describe('the custom AIs curation page', () => {
  it('lists what waits for review with its instructions as text, and publishes one featured', async () => {
    let waiting = [shared()];
    const calls = fakeApi({}, (method, path, url) => {
      if (path === '/rest/v1/admin/custom-ais') {
        return json({
          custom_ais: url.searchParams.get('status') === 'submitted' ? waiting : [],
        });
      }
      if (method === 'POST' && path === `/rest/v1/admin/custom-ais/${aiId}/publish`) {
        waiting = [];
        return json(shared({ share_status: 'published', featured: true }));
      }
      return undefined;
    });
    renderPage();
    const list = await screen.findByRole('list', { name: 'Custom AIs' });
    const entry = within(list).getByRole('listitem', { name: 'Pirate tutor' });
    expect(entry.textContent).toContain('Waiting for review');
    expect(entry.textContent).toContain('Learning');
    expect(within(entry).getByTestId('admin-custom-ai-model').textContent).toBe(
      'OpenAI · gpt-5-mini',
    );
    expect(entry.textContent).toContain('By ann@example.com');
    expect(entry.textContent).toContain('What is a verb?');
    // The author's instructions are data: shown as written, never as markup.
    expect(entry.textContent).toContain('<img src=x onerror="alert(1)"> Answer like a pirate.');
    expect(entry.querySelector('img')).toBeNull();

    fireEvent.click(within(entry).getByRole('checkbox', { name: 'Featured' }));
    fireEvent.click(within(entry).getByRole('button', { name: 'Publish' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST')).toEqual([
        {
          method: 'POST',
          path: `/rest/v1/admin/custom-ais/${aiId}/publish`,
          body: { featured: true },
        },
      ]),
    );
    expect(await screen.findByText('Nothing to curate')).toBeTruthy();
    expect(calls[0]).toMatchObject({
      method: 'GET',
      path: '/rest/v1/admin/custom-ais',
      search: '?status=submitted',
    });
  });

  it('rejects one with a note for its owner, and asks for the note first', async () => {
    const calls = fakeApi({}, (method, path) => {
      if (path === '/rest/v1/admin/custom-ais') return json({ custom_ais: [shared()] });
      if (method === 'POST' && path === `/rest/v1/admin/custom-ais/${aiId}/reject`) {
        return json(shared({ share_status: 'rejected', share_note: 'Too salty.' }));
      }
      return undefined;
    });
    renderPage();
    const entry = await screen.findByRole('listitem', { name: 'Pirate tutor' });
    fireEvent.click(within(entry).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject “Pirate tutor”' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'Say why it is not published',
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Note for its owner'), {
      target: { value: ' Too salty. ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST')).toEqual([
        {
          method: 'POST',
          path: `/rest/v1/admin/custom-ais/${aiId}/reject`,
          body: { note: 'Too salty.' },
        },
      ]),
    );
  });

  it('shows what is published, and says when nothing is', async () => {
    const calls = fakeApi({}, (_method, path, url) =>
      path === '/rest/v1/admin/custom-ais'
        ? json({
            custom_ais:
              url.searchParams.get('status') === 'published'
                ? [shared({ share_status: 'published', featured: true, model: null })]
                : [],
          })
        : undefined,
    );
    renderPage();
    expect(await screen.findByText('Nothing to curate')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'published' } });
    const entry = await screen.findByRole('listitem', { name: 'Pirate tutor' });
    expect(entry.textContent).toContain('Published');
    expect(within(entry).getByLabelText('Featured', { selector: 'svg' })).toBeTruthy();
    expect(within(entry).getByTestId('admin-custom-ai-model').textContent).toMatch(
      /^OpenAI · .+ \(default\)$/,
    );
    expect(within(entry).getByRole('button', { name: 'Unpublish' })).toBeTruthy();
    expect(calls.map((c) => `${c.path}${c.search ?? ''}`)).toContain(
      '/rest/v1/admin/custom-ais?status=published',
    );
  });
});
