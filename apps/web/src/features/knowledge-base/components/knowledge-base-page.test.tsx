import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type {
  KnowledgeBase,
  KnowledgeDocument,
  KnowledgeHit,
  UploadDocumentsResult,
} from '@chorus/shared/api/knowledge';
import { helpLinks } from '@/lib/help-links';
import { fakeApi, json, openAiKeyRoute, type ApiHandler } from '@/test/fake-api';
import { renderRoutes, signedInSession } from '@/test/render';
import { KnowledgeBasePage } from './knowledge-base-page';

const baseId = '6d1c0f9e-0d3b-4d7e-9a55-2f6f0b1c2d3e';

const base = (over: Partial<KnowledgeBase> = {}): KnowledgeBase => ({
  id: baseId,
  name: 'Team handbook',
  description: 'Policies and how-tos',
  embedding_provider: 'openai',
  embedding_model: 'text-embedding-3-small',
  reembedding: null,
  search_mode: 'hybrid',
  search_notice: null,
  document_count: 3,
  chunk_count: 52,
  size_bytes: 400_000,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

const document = (over: Partial<KnowledgeDocument>): KnowledgeDocument => ({
  id: 'd1',
  knowledge_base_id: baseId,
  file_id: 'f1',
  name: 'handbook.pdf',
  content_type: 'application/pdf',
  size_bytes: 120_000,
  sha256: 'abc',
  status: 'ready',
  error: null,
  pages: 12,
  chunk_count: 30,
  embedded_count: 30,
  created_at: '2026-01-02T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
  ...over,
});

/** A stand-in server: the handler answers what the test is about, the rest is a plain default. */
const stubServer = (handler?: ApiHandler) => fakeApi(openAiKeyRoute, handler);

const renderPage = (path = '/knowledge-base') =>
  renderRoutes({
    path,
    routes: [{ path: '/knowledge-base', element: <KnowledgeBasePage /> }],
    session: signedInSession,
  });

const listOf = (bases: KnowledgeBase[], vectors = true) =>
  json({ knowledge_bases: bases, vectors_available: vectors });

describe('the knowledge base page', () => {
  it('explains what to do first when there is no knowledge base, and that vectors are missing', async () => {
    stubServer((method, path) =>
      method === 'GET' && path === '/rest/v1/knowledge-bases' ? listOf([], false) : undefined,
    );
    renderPage();
    expect(await screen.findByText('No knowledge bases yet')).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'How the knowledge base works' }).getAttribute('href'),
    ).toBe(helpLinks.knowledgeBase);
    expect(screen.getByRole('note').textContent).toContain('no vector support');
  });

  it('creates a base with the first embedding provider the user has a key for', async () => {
    let created = false;
    const calls = stubServer((method, path) => {
      if (path !== '/rest/v1/knowledge-bases') return undefined;
      if (method === 'POST') {
        created = true;
        return json(base({ name: 'Contracts' }), 201);
      }
      return listOf(created ? [base({ name: 'Contracts' })] : []);
    });
    renderPage();
    fireEvent.click((await screen.findAllByRole('button', { name: 'New knowledge base' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New knowledge base' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Contracts' } });
    const model = within(dialog).getByLabelText<HTMLSelectElement>('Embedding model');
    await waitFor(() => expect(model.value).toBe('openai:text-embedding-3-small'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create knowledge base' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        name: 'Contracts',
        description: '',
        embedding_provider: 'openai',
        embedding_model: 'text-embedding-3-small',
      }),
    );
    expect(await screen.findByRole('heading', { name: /Contracts/ })).toBeTruthy();
  });

  it('offers full text only, with the way to a key, when the user has no embedding key', async () => {
    stubServer((method, path) => {
      if (path === '/rest/v1/knowledge-bases') return listOf([]);
      if (path === '/rest/v1/api-keys/availability') {
        return json([{ provider: 'openai', enabled: true, source: null, key_hint: null }]);
      }
      return undefined;
    });
    renderPage();
    fireEvent.click((await screen.findAllByRole('button', { name: 'New knowledge base' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New knowledge base' });
    await waitFor(() =>
      expect(within(dialog).getByLabelText<HTMLSelectElement>('Embedding model').value).toBe(
        'none',
      ),
    );
    expect(within(dialog).getByText(/Add an OpenAI, Gemini or Mistral key/)).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'API keys page' })).toBeTruthy();
  });

  it('shows each document’s status, the embedding progress, and why one failed, with Retry', async () => {
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/knowledge-bases') {
        return listOf([
          base({
            search_mode: 'full_text',
            search_notice: 'No OpenAI key: this knowledge base is searched by full text only.',
          }),
        ]);
      }
      if (path === `/rest/v1/knowledge-bases/${baseId}/documents`) {
        return json({
          documents: [
            document({
              id: 'd3',
              name: 'notes.md',
              status: 'embedding',
              chunk_count: 40,
              embedded_count: 12,
              pages: null,
            }),
            document({
              id: 'd2',
              name: 'broken.docx',
              status: 'failed',
              error: 'The file is not a valid Word document.',
              pages: null,
            }),
            document({}),
          ],
        });
      }
      if (method === 'POST' && path.endsWith('/documents/d2/retry')) {
        return json(document({ id: 'd2', name: 'broken.docx', status: 'queued' }));
      }
      return undefined;
    });
    renderPage();
    const list = await screen.findByRole('list', { name: 'Documents of this knowledge base' });
    const embedding = within(list).getByRole('listitem', { name: 'notes.md' });
    expect(within(embedding).getByText('Embedding')).toBeTruthy();
    expect(within(embedding).getByText('12 of 40 chunks embedded')).toBeTruthy();
    expect(within(embedding).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('12');
    const failed = within(list).getByRole('listitem', { name: 'broken.docx' });
    expect(within(failed).getByRole('alert').textContent).toBe(
      'The file is not a valid Word document.',
    );
    const ready = within(list).getByRole('listitem', { name: 'handbook.pdf' });
    expect(within(ready).getByText('Ready')).toBeTruthy();
    expect(ready.textContent).toContain('12 pages');
    expect(screen.getByTestId('search-notice').textContent).toContain('full text only');

    fireEvent.click(within(failed).getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/d2/retry'))).toBe(true),
    );
  });

  it('uploads several files at once and says what became of each', async () => {
    const result: UploadDocumentsResult = {
      files: [
        {
          outcome: 'queued',
          name: 'guide.pdf',
          document: document({ name: 'guide.pdf', status: 'queued' }),
        },
        { outcome: 'duplicate', name: 'handbook.pdf', document: document({}) },
        {
          outcome: 'refused',
          name: 'slides.pptx',
          code: 'knowledge:unsupported_type',
          message: '“slides.pptx” is not a type a knowledge base reads.',
        },
      ],
    };
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/knowledge-bases') return listOf([base()]);
      if (path === `/rest/v1/knowledge-bases/${baseId}/documents`) {
        return method === 'POST' ? json(result) : json({ documents: [document({})] });
      }
      return undefined;
    });
    renderPage();
    await screen.findByRole('listitem', { name: 'handbook.pdf' });
    const files = [
      new File(['%PDF-1.4'], 'guide.pdf', { type: 'application/pdf' }),
      new File(['%PDF-1.4'], 'handbook.pdf', { type: 'application/pdf' }),
      new File(['x'], 'slides.pptx'),
    ];
    fireEvent.change(screen.getByLabelText('Documents to upload'), { target: { files } });

    const results = await screen.findByRole('region', { name: 'Upload results' });
    const upload = calls.find((c) => c.method === 'POST');
    expect(upload?.path).toBe(`/rest/v1/knowledge-bases/${baseId}/documents`);
    expect(upload?.body).toBeInstanceOf(FormData);
    expect((upload?.body as FormData).getAll('files').map((f) => (f as File).name)).toEqual([
      'guide.pdf',
      'handbook.pdf',
      'slides.pptx',
    ]);
    const rows = within(results).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('data-outcome'))).toEqual([
      'queued',
      'duplicate',
      'refused',
    ]);
    expect(rows[0]!.textContent).toContain('Added');
    expect(rows[1]!.textContent).toContain('Already in this knowledge base');
    expect(rows[2]!.textContent).toContain('“slides.pptx” is not a type a knowledge base reads.');
  });

  it('says plainly that nothing was added when the server refuses every file', async () => {
    stubServer((method, path) => {
      if (path === '/rest/v1/knowledge-bases') return listOf([base()]);
      if (path === `/rest/v1/knowledge-bases/${baseId}/documents`) {
        return method === 'POST'
          ? json(
              {
                error: 'The file is larger than your plan allows (10 MB).',
                code: 'storage:too_large',
              },
              413,
            )
          : json({ documents: [] });
      }
      return undefined;
    });
    renderPage();
    expect(await screen.findByText('Drop files here, or upload them')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Documents to upload'), {
      target: { files: [new File(['x'], 'huge.pdf', { type: 'application/pdf' })] },
    });
    const results = await screen.findByRole('region', { name: 'Upload results' });
    expect(within(results).getByRole('alert').textContent).toBe(
      'Nothing was added: The file is larger than your plan allows (10 MB).',
    );
  });

  it('shows each passage’s vector, full-text and fused ranks side by side in the inspector', async () => {
    const hits: KnowledgeHit[] = [
      {
        chunk_id: 'c1',
        document_id: 'd1',
        document_name: 'handbook.pdf',
        knowledge_base_id: baseId,
        position: { index: 4, page: 3, heading_path: [], rows: null },
        text: 'Staff get 25 days of annual leave.',
        score: 0.0325,
        rank: 1,
        vector: { rank: 2, score: 0.8123 },
        full_text: { rank: 1, score: 0.27 },
        found_by: ['vector', 'full_text'],
      },
      {
        chunk_id: 'c2',
        document_id: 'd2',
        document_name: 'notes.md',
        knowledge_base_id: baseId,
        position: { index: 0, page: null, heading_path: ['Time off', 'Leave'], rows: null },
        text: 'Holidays are planned with your manager.',
        score: 0.0164,
        rank: 2,
        vector: { rank: 1, score: 0.84 },
        full_text: null,
        found_by: ['vector'],
      },
    ];
    const calls = stubServer((method, path) => {
      if (path === '/rest/v1/knowledge-bases') return listOf([base()]);
      if (path === `/rest/v1/knowledge-bases/${baseId}/documents`) {
        return json({ documents: [document({})] });
      }
      if (method === 'POST' && path === '/functions/v1/knowledge-search') {
        return json({ results: hits, mode: 'hybrid', notice: null });
      }
      return undefined;
    });
    renderPage();
    const query = await screen.findByLabelText('Query');
    fireEvent.change(query, { target: { value: 'How many days of leave?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));

    const ranked = await screen.findByRole('list', { name: 'Ranked passages' });
    expect(calls.find((c) => c.path === '/functions/v1/knowledge-search')?.body).toEqual({
      knowledge_base_ids: [baseId],
      query: 'How many days of leave?',
      top_k: 8,
    });
    const [first, second] = within(ranked).getAllByRole('listitem');
    expect(first!.textContent).toContain('handbook.pdf');
    expect(first!.textContent).toContain('Page 3');
    expect(first!.textContent).toContain('Staff get 25 days of annual leave.');
    const scores = (item: HTMLElement, method: string) =>
      within(within(item).getByTestId(`score-${method}`))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(scores(first!, 'fused')).toEqual(['#1', '0.0325']);
    expect(scores(first!, 'vector')).toEqual(['#2', '0.812']);
    expect(scores(first!, 'full-text')).toEqual(['#1', '0.270']);
    expect(first!.textContent).toContain('Found by Vector and Full text');
    expect(second!.textContent).toContain('Time off › Leave');
    expect(scores(second!, 'full-text')).toEqual(['not found']);
    expect(second!.textContent).toContain('Found by Vector');
  });
});
