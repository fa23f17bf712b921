import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Prompt } from '@chorus/shared/api/prompts';
import { fillTemplate } from '@chorus/shared/template';
import { Composer } from '@/components/chat/composer';
import { usePromptPicker } from './use-prompt-picker';

const prompt = (over: Partial<Prompt>): Prompt => ({
  id: '00000000-0000-4000-8000-000000000001',
  title: 'Plain',
  content: 'Plain text',
  description: '',
  category: '',
  tags: [],
  favorite: false,
  variables: [],
  use_count: 0,
  last_used_at: null,
  version: 1,
  sharing: 'private',
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
  ...over,
});

const plain = prompt({});
const withVariables = prompt({
  id: '00000000-0000-4000-8000-000000000002',
  title: 'Release notes',
  content: 'Notes for {{product}} in a {{tone|friendly}} tone.',
  variables: [
    { name: 'product', default: null },
    { name: 'tone', default: 'friendly' },
  ],
});

/** The server: the user's prompts filtered by `search`, and their fill. */
const stubServer = () => {
  const requests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      requests.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`);
      if (url.pathname === '/rest/v1/prompts') {
        const search = (url.searchParams.get('search') ?? '').toLowerCase();
        const items = [plain, withVariables].filter((p) => p.title.toLowerCase().includes(search));
        return Response.json({ items, next_cursor: null, categories: [] });
      }
      const render = /^\/rest\/v1\/prompts\/([^/]+)\/render$/.exec(url.pathname);
      if (render) {
        const found = [plain, withVariables].find((p) => p.id === render[1])!;
        const { variables } = JSON.parse(String(init?.body)) as {
          variables: Record<string, string>;
        };
        return Response.json({
          title: found.title,
          description: '',
          content: fillTemplate(found.content, variables),
        });
      }
      return Response.json({ error: 'Not stubbed' }, { status: 404 });
    }),
  );
  return requests;
};

const Harness = ({ onInsert }: { onInsert: (text: string, id: string) => void }) => {
  const [draft, setDraft] = useState('');
  const picker = usePromptPicker({
    draft,
    onInsert: (text, chosen) => {
      setDraft(text);
      onInsert(text, chosen.id);
    },
  });
  return (
    <>
      <Composer
        value={draft}
        onChange={setDraft}
        onSend={() => undefined}
        onStop={() => undefined}
        busy={false}
        onListKey={picker.onKeyDown}
        listProps={picker.textboxProps}
        above={picker.list}
      />
      {picker.dialog}
    </>
  );
};

const renderHarness = () => {
  const onInsert = vi.fn();
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <MemoryRouter>
        <Harness onInsert={onInsert} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { onInsert, box: screen.getByLabelText('Message') as HTMLTextAreaElement };
};

afterEach(() => vi.unstubAllGlobals());

describe('the composer’s / prompt picker', () => {
  it('lists matching prompts and inserts a prompt without variables on Enter', async () => {
    const requests = stubServer();
    const { onInsert, box } = renderHarness();
    fireEvent.change(box, { target: { value: '/pla' } });
    const option = await screen.findByRole('option', { name: /Plain/ });
    expect(option.getAttribute('aria-selected')).toBe('true');
    expect(box.getAttribute('aria-activedescendant')).toBe(option.id);
    expect(
      requests.some((r) => r.startsWith('GET /rest/v1/prompts?') && r.includes('search=pla')),
    ).toBe(true);

    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(onInsert).toHaveBeenCalledWith('Plain text', plain.id));
    expect(box.value).toBe('Plain text');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('moves with the arrows and fills a prompt’s variables before inserting it', async () => {
    stubServer();
    const { onInsert, box } = renderHarness();
    fireEvent.change(box, { target: { value: '/' } });
    await screen.findByRole('option', { name: /Release notes/ });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(
      screen.getByRole('option', { name: /Release notes/ }).getAttribute('aria-selected'),
    ).toBe('true');
    fireEvent.keyDown(box, { key: 'Enter' });

    const product = await screen.findByLabelText(/product/);
    expect((screen.getByLabelText('tone') as HTMLTextAreaElement).value).toBe('friendly');
    const insert = screen.getByRole('button', { name: 'Insert' }) as HTMLButtonElement;
    expect(insert.disabled).toBe(true);
    fireEvent.change(product, { target: { value: 'Orbit' } });
    fireEvent.click(insert);
    await waitFor(() =>
      expect(onInsert).toHaveBeenCalledWith(
        'Notes for Orbit in a friendly tone.',
        withVariables.id,
      ),
    );
  });

  it('closes on Escape and leaves the text as it was; no list without a leading slash', async () => {
    stubServer();
    const { box } = renderHarness();
    fireEvent.change(box, { target: { value: '/rel' } });
    await screen.findByRole('listbox');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.value).toBe('/rel');
    fireEvent.change(box, { target: { value: 'a /rel' } });
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('says when nothing matches and links to the library', async () => {
    stubServer();
    const { box } = renderHarness();
    fireEvent.change(box, { target: { value: '/zzz' } });
    expect(await screen.findByText(/No saved prompt matches “zzz”/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the prompt library' }).getAttribute('href')).toBe(
      '/prompts',
    );
  });
});
