import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import type { KnowledgeBaseList } from '@chorus/shared/api/knowledge';
import { helpLinks } from '@/lib/help-links';
import { fakeApi, json, openAiKeyRoute, type ApiHandler } from '@/test/fake-api';
import { renderRoutes, signedInSession } from '@/test/render';
import { CustomAisPage } from './custom-ais-page';

const aiId = '3c9a7b1e-2d4f-4e8a-9b6c-1a2b3c4d5e6f';
const baseId = '6d1c0f9e-0d3b-4d7e-9a55-2f6f0b1c2d3e';

const customAi = (over: Partial<CustomAi> = {}): CustomAi => ({
  id: aiId,
  name: 'Pirate tutor',
  description: 'Explains grammar like a pirate',
  avatar: '🦜',
  system_prompt: 'Answer like a pirate.',
  provider: 'openai',
  model: 'gpt-5-mini',
  parameters: { temperature: 0.3, top_p: null, max_tokens: null },
  starters: ['What is a verb?', 'Teach me a sea shanty'],
  knowledge_base_ids: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

const bases: KnowledgeBaseList = {
  vectors_available: true,
  knowledge_bases: [
    {
      id: baseId,
      name: 'Grammar book',
      description: '',
      embedding_provider: null,
      embedding_model: null,
      reembedding: null,
      search_mode: 'full_text',
      search_notice: null,
      document_count: 1,
      chunk_count: 4,
      size_bytes: 100,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    },
  ],
};

/** A stand-in server: the handler answers what the test is about, the rest is a plain default. */
const stubServer = (handler?: ApiHandler) =>
  fakeApi({ ...openAiKeyRoute, '/rest/v1/knowledge-bases': bases }, handler);

const renderPage = () =>
  renderRoutes({
    path: '/custom-ais',
    routes: [
      { path: '/custom-ais', element: <CustomAisPage /> },
      { path: '/chat', element: <p>The chat</p> },
    ],
    session: signedInSession,
  });

const openNewDialog = async () => {
  fireEvent.click((await screen.findAllByRole('button', { name: 'New custom AI' }))[0]!);
  return screen.findByRole('dialog', { name: 'New custom AI' });
};

describe('the custom AIs page', () => {
  it('explains what a custom AI is when there is none, with the way to the help', async () => {
    stubServer((method, path) =>
      path === '/rest/v1/custom-ais' ? json({ custom_ais: [] }) : undefined,
    );
    renderPage();
    expect(await screen.findByText('No custom AIs yet')).toBeTruthy();
    expect(screen.getByText(/A custom AI is an assistant you set up once/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'How custom AIs work' }).getAttribute('href')).toBe(
      helpLinks.customAis,
    );
  });

  it('lists each custom AI with its avatar, model, starters and knowledge bases, and starts a chat with it', async () => {
    stubServer((method, path) =>
      path === '/rest/v1/custom-ais'
        ? json({
            custom_ais: [
              customAi(),
              customAi({
                id: '00000000-0000-4000-8000-000000000002',
                name: 'Contract reviewer',
                avatar: '',
                description: '',
                provider: 'anthropic',
                model: null,
                starters: ['Check this clause'],
                knowledge_base_ids: [baseId],
              }),
            ],
          })
        : undefined,
    );
    const { router } = renderPage();
    const list = await screen.findByRole('list', { name: 'Your custom AIs' });
    const pirate = within(list).getByRole('listitem', { name: 'Pirate tutor' });
    expect(pirate.textContent).toContain('🦜');
    expect(pirate.textContent).toContain('OpenAI · GPT-5 mini');
    expect(pirate.textContent).toContain('Explains grammar like a pirate');
    expect(pirate.textContent).toContain('2 starters');
    expect(pirate.textContent).toContain('0 knowledge bases');
    const reviewer = within(list).getByRole('listitem', { name: 'Contract reviewer' });
    // No avatar: its initials.
    expect(reviewer.textContent).toContain('CR');
    expect(reviewer.textContent).toMatch(/Anthropic · .+ \(default\)/);
    expect(reviewer.textContent).toContain('1 starter');
    expect(reviewer.textContent).toContain('1 knowledge base');

    fireEvent.click(within(pirate).getByRole('link', { name: 'Start a chat' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/chat'));
    expect(router.state.location.search).toBe(`?custom_ai=${aiId}`);
  });

  it('says beside each field what to fix before it sends anything', async () => {
    const calls = stubServer((method, path) =>
      path === '/rest/v1/custom-ais' ? json({ custom_ais: [] }) : undefined,
    );
    renderPage();
    const dialog = await openNewDialog();
    fireEvent.change(within(dialog).getByLabelText('Temperature'), { target: { value: '3' } });
    fireEvent.change(within(dialog).getByLabelText('Top P'), { target: { value: 'lots' } });
    fireEvent.change(within(dialog).getByLabelText('Max tokens'), { target: { value: '1.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create custom AI' }));

    expect(await within(dialog).findByText('Give the custom AI a name')).toBeTruthy();
    expect(within(dialog).getByText('The temperature is between 0 and 2')).toBeTruthy();
    expect(within(dialog).getByText('Top P must be a number')).toBeTruthy();
    expect(within(dialog).getByText('The reply length is a whole number of tokens')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Name'));
    expect(calls.some((c) => c.path.startsWith('/rest/v1/custom-ais') && c.method !== 'GET')).toBe(
      false,
    );
  });

  it('creates a custom AI with its instructions, model, parameters, starters and knowledge base', async () => {
    let created: CustomAi | null = null;
    const calls = stubServer((method, path) => {
      if (path !== '/rest/v1/custom-ais') return undefined;
      if (method === 'POST') {
        created = customAi();
        return json(created, 201);
      }
      return json({ custom_ais: created ? [created] : [] });
    });
    renderPage();
    const dialog = await openNewDialog();
    fireEvent.change(within(dialog).getByLabelText('Name'), {
      target: { value: ' Pirate tutor ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use 🦜 as the avatar' }));
    fireEvent.change(within(dialog).getByLabelText('Instructions'), {
      target: { value: 'Answer like a pirate.' },
    });
    fireEvent.change(within(dialog).getByLabelText('Provider'), { target: { value: 'anthropic' } });
    fireEvent.change(within(dialog).getByLabelText('Model'), {
      target: { value: 'claude-haiku-4-5' },
    });
    fireEvent.change(within(dialog).getByLabelText('Temperature'), { target: { value: '0.3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add a starter' }));
    fireEvent.change(within(dialog).getByLabelText('Conversation starter 1'), {
      target: { value: 'What is a verb?' },
    });
    // A starter left blank is not sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add a starter' }));
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: 'Grammar book' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create custom AI' }));

    await waitFor(() =>
      expect(
        calls.find((c) => c.method === 'POST' && c.path === '/rest/v1/custom-ais')?.body,
      ).toEqual({
        name: 'Pirate tutor',
        avatar: '🦜',
        description: '',
        system_prompt: 'Answer like a pirate.',
        provider: 'anthropic',
        model: 'claude-haiku-4-5',
        parameters: { temperature: 0.3, top_p: null, max_tokens: null },
        starters: ['What is a verb?'],
        knowledge_base_ids: [baseId],
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('listitem', { name: 'Pirate tutor' })).toBeTruthy();
  });

  it('edits a custom AI: the form starts from it and saves every field', async () => {
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/custom-ais') return json({ custom_ais: [customAi()] });
      if (path === `/rest/v1/custom-ais/${aiId}` && method === 'PATCH') {
        return json(customAi({ name: 'Polite pirate' }));
      }
      return undefined;
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Pirate tutor' });
    fireEvent.click(within(card).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit “Pirate tutor”' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Temperature').value).toBe('0.3');
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Model').value).toBe('gpt-5-mini');
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Polite pirate' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove conversation starter 2' }));
    fireEvent.change(within(dialog).getByLabelText('Temperature'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')).toEqual({
        method: 'PATCH',
        path: `/rest/v1/custom-ais/${aiId}`,
        body: {
          name: 'Polite pirate',
          avatar: '🦜',
          description: 'Explains grammar like a pirate',
          system_prompt: 'Answer like a pirate.',
          provider: 'openai',
          model: 'gpt-5-mini',
          parameters: { temperature: null, top_p: null, max_tokens: null },
          starters: ['What is a verb?'],
          knowledge_base_ids: [],
        },
      }),
    );
  });

  it('shows the server’s refusal in the dialog', async () => {
    stubServer((method, path) => {
      if (path !== '/rest/v1/custom-ais') return undefined;
      if (method === 'POST') {
        return json(
          {
            error: 'You have as many custom AIs as you may keep. Delete one you no longer use.',
            code: 'custom_ais:too_many',
          },
          409,
        );
      }
      return json({ custom_ais: [] });
    });
    renderPage();
    const dialog = await openNewDialog();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'One more' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create custom AI' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'You have as many custom AIs as you may keep.',
    );
  });

  it('deletes a custom AI after asking', async () => {
    let deleted = false;
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/custom-ais') {
        return json({ custom_ais: deleted ? [] : [customAi()] });
      }
      if (path === `/rest/v1/custom-ais/${aiId}` && method === 'DELETE') {
        deleted = true;
        return new Response(null, { status: 204 });
      }
      return undefined;
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Pirate tutor' });
    fireEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete “Pirate tutor”?' });
    expect(confirm.textContent).toContain('go back to a plain model');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete custom AI' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        `/rest/v1/custom-ais/${aiId}`,
      ]),
    );
    expect(await screen.findByText('No custom AIs yet')).toBeTruthy();
  });

  it('shares a custom AI to Discover with a category, saying its instructions become public', async () => {
    let current = customAi();
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/custom-ais') return json({ custom_ais: [current] });
      if (path === `/rest/v1/custom-ais/${aiId}/share` && method === 'POST') {
        current = customAi({ share_status: 'submitted', category: 'Learning', owned: true });
        return json(current);
      }
      return undefined;
    });
    renderPage();
    const card = await screen.findByRole('listitem', { name: 'Pirate tutor' });
    expect(within(card).getByTestId('custom-ai-share').textContent).toContain('Private');
    fireEvent.click(within(card).getByRole('button', { name: 'Share to Discover' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share “Pirate tutor” to Discover' });
    expect(dialog.textContent).toContain('Its instructions become visible to everyone.');
    expect(dialog.textContent).toContain('on their own keys and quota, never yours');

    // A category is needed before anything is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ask for review' }));
    expect(await within(dialog).findByText(/Pick a category/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Category'), {
      target: { value: ' Learning ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ask for review' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST')).toEqual([
        {
          method: 'POST',
          path: `/rest/v1/custom-ais/${aiId}/share`,
          body: { category: 'Learning' },
        },
      ]),
    );
    const shared = await screen.findByRole('listitem', { name: 'Pirate tutor' });
    await waitFor(() =>
      expect(within(shared).getByTestId('custom-ai-share').textContent).toContain(
        'Waiting for review',
      ),
    );
    expect(within(shared).getByRole('button', { name: 'Stop sharing' })).toBeTruthy();
  });

  it('shows each sharing status, with the curators’ note, and stops sharing', async () => {
    let published = customAi({ share_status: 'published', category: 'Learning', owned: true });
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/custom-ais') {
        return json({
          custom_ais: [
            published,
            customAi({
              id: '00000000-0000-4000-8000-000000000002',
              name: 'Contract reviewer',
              share_status: 'rejected',
              share_note: 'Say which law it knows.',
              category: 'Law',
            }),
          ],
        });
      }
      if (path === `/rest/v1/custom-ais/${aiId}/share` && method === 'DELETE') {
        published = customAi({ share_status: 'private', owned: true });
        return json(published);
      }
      return undefined;
    });
    renderPage();
    const pirate = await screen.findByRole('listitem', { name: 'Pirate tutor' });
    const status = within(pirate).getByTestId('custom-ai-share').textContent;
    expect(status).toContain('Published');
    expect(status).toContain('A change you save sends it back for review.');
    const reviewer = screen.getByRole('listitem', { name: 'Contract reviewer' });
    expect(within(reviewer).getByTestId('custom-ai-share').textContent).toContain(
      'Not published: Say which law it knows.',
    );
    // Not published: it can be shared again.
    expect(within(reviewer).getByRole('button', { name: 'Share to Discover' })).toBeTruthy();

    fireEvent.click(within(pirate).getByRole('button', { name: 'Stop sharing' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        `/rest/v1/custom-ais/${aiId}/share`,
      ]),
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('listitem', { name: 'Pirate tutor' })).getByRole('button', {
          name: 'Share to Discover',
        }),
      ).toBeTruthy(),
    );
  });
});
