import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { trendPresetQuestions } from '@chorus/shared/api/trends';
import { renderRoutes, signedInSession } from '@/test/render';
import { TrendsProxyPage } from './trends-proxy-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A text/plain body whose chunks the test releases one by one. */
const controlledStream = () => {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } }),
    push: (text: string) => controller.enqueue(new TextEncoder().encode(text)),
    close: () => controller.close(),
  };
};

type Ask = { body: unknown; signal: AbortSignal | null | undefined };

const stubServer = (answer: (ask: Ask) => Response | Promise<Response>) => {
  const asks: Ask[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), window.location.origin).pathname;
      if (path === '/functions/v1/get-enabled-providers') {
        return json({ providers: ['openai', 'anthropic'] });
      }
      if (path === '/rest/v1/api-keys/availability') {
        return json([
          { provider: 'openai', enabled: true, source: 'own' },
          { provider: 'anthropic', enabled: true, source: null },
        ]);
      }
      if (path === '/functions/v1/trends-ask') {
        const ask = { body: JSON.parse(String(init?.body)) as unknown, signal: init?.signal };
        asks.push(ask);
        return answer(ask);
      }
      return json({ error: `unexpected ${path}` }, 500);
    }),
  );
  return asks;
};

const renderPage = () =>
  renderRoutes({
    path: '/trends-proxy',
    routes: [{ path: '/trends-proxy', element: <TrendsProxyPage /> }],
    session: signedInSession,
  });

describe('asking AI about the trends', () => {
  it('asks a preset question and shows the answer as it streams in', async () => {
    const stream = controlledStream();
    const asks = stubServer(() => stream.response);
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: trendPresetQuestions[0] }));
    expect(await screen.findByText('Waiting for the model…')).toBeTruthy();
    expect(asks.map((a) => a.body)).toEqual([{ question: trendPresetQuestions[0] }]);
    expect((screen.getByLabelText('Your question') as HTMLTextAreaElement).value).toBe(
      trendPresetQuestions[0],
    );

    stream.push('**Code review** is ');
    expect(await screen.findByText('Answering…')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('trends-answer').textContent).toBe('Code review is'),
    );
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    stream.push('rising fastest.');
    stream.close();
    expect(await screen.findByText('Done.')).toBeTruthy();
    expect(screen.getByTestId('trends-answer').textContent).toBe('Code review is rising fastest.');
    // Model output is text to show, never markup to run.
    expect(screen.getByText('Code review').tagName).toBe('STRONG');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it('sends the typed question with the provider picked, and marks a provider without a key', async () => {
    const stream = controlledStream();
    const asks = stubServer(() => stream.response);
    renderPage();
    const picker = screen.getByLabelText('Provider') as HTMLSelectElement;
    expect(picker.value).toBe('');
    await waitFor(() =>
      expect([...picker.options].map((o) => o.textContent)).toEqual([
        'Let Chorus choose',
        'OpenAI',
        'Anthropic (no key)',
      ]),
    );
    fireEvent.change(picker, { target: { value: 'openai' } });
    fireEvent.change(screen.getByLabelText('Your question'), {
      target: { value: '  Which scenario suits support?  ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    await waitFor(() =>
      expect(asks.map((a) => a.body)).toEqual([
        { question: 'Which scenario suits support?', provider: 'openai' },
      ]),
    );
    stream.close();
  });

  it('asks for a question instead of sending an empty one', () => {
    const asks = stubServer(() => json({}));
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    expect(screen.getByText('Ask a question, or pick one of the presets.')).toBeTruthy();
    expect(asks).toEqual([]);
  });

  it('stops on request, keeps the answer so far, and retries the same question', async () => {
    const first = controlledStream();
    const second = controlledStream();
    const asks = stubServer(() => (asks.length === 1 ? first.response : second.response));
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: trendPresetQuestions[1] }));
    first.push('Start with the ');
    await screen.findByText('Answering…');
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(await screen.findByText('Stopped. The answer so far is kept.')).toBeTruthy();
    expect(asks[0]!.signal?.aborted).toBe(true);
    expect(screen.getByTestId('trends-answer').textContent).toBe('Start with the');

    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    second.push('Start with the code review scenario.');
    second.close();
    expect(await screen.findByText('Done.')).toBeTruthy();
    expect(asks.map((a) => a.body)).toEqual([
      { question: trendPresetQuestions[1] },
      { question: trendPresetQuestions[1] },
    ]);
    expect(screen.getByTestId('trends-answer').textContent).toBe(
      'Start with the code review scenario.',
    );
  });

  it('says plainly when no key is available and links to the keys page', async () => {
    stubServer(() =>
      json({ error: 'No OpenAI API key is available to you.', code: 'keys:missing' }, 400),
    );
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: trendPresetQuestions[0] }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No OpenAI API key is available to you.');
    expect(screen.getByRole('link', { name: 'Open API keys' }).getAttribute('href')).toBe(
      '/copy-api-keys',
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('keeps what came before a connection lost partway, and says so', async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    stubServer(() => new Response(body, { headers: { 'content-type': 'text/plain' } }));
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: trendPresetQuestions[0] }));
    controller.enqueue(new TextEncoder().encode('Half an answer'));
    await screen.findByText('Answering…');
    controller.error(new TypeError('network error'));
    expect((await screen.findByRole('alert')).textContent).toContain('The answer stopped partway');
    expect(screen.getByTestId('trends-answer').textContent).toBe('Half an answer');
  });
});
