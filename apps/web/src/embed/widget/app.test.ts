import { fireEvent, waitFor, within } from '@testing-library/dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { widgetUnavailableMessage, type WidgetStreamEvent } from '@chorus/shared/api/widgets';
import { fallbackMessages } from './api';
import { startWidget, type WidgetOptions } from './app';

const id = 'wgt_AbCdEfGhIjKlMnOpQrSt';
const storageKey = `chorus-widget:${id}`;
const config = {
  public_id: id,
  title: 'Help desk',
  color: '#0ea5e9',
  greeting: 'Hi! Ask me anything.',
  position: 'bottom-right',
  require_signed_visitors: false,
};
const sessionAnswer = (session = 'sess-1') => ({
  session,
  visitor: { name: null, signed: false },
  config,
  conversations: [{ id: 'c1', title: 'Shipping times', updated_at: '2025-01-02T10:00:00Z' }],
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const sse = (events: WidgetStreamEvent[]) =>
  new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''), {
    headers: { 'content-type': 'text/event-stream' },
  });
const start = (conversation = 'c2'): WidgetStreamEvent => ({
  type: 'start',
  conversation_id: conversation,
  message_id: 'm1',
});

type Call = { path: string; method: string; headers: Record<string, string>; body: unknown };
type Handler = (call: Call) => Response | Promise<Response>;

/** The public widget API, played by the test: one handler per path, every call recorded. */
const serve = (handlers: Record<string, Handler>) => {
  const calls: Call[] = [];
  vi.mocked(fetch).mockImplementation(async (input, init) => {
    const path = String(input).replace(`/widget/v1/${id}`, '');
    expect(init?.credentials).toBe('omit');
    const call: Call = {
      path,
      method: init?.method ?? 'GET',
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const handler = handlers[path];
    if (!handler) throw new Error(`unexpected call to ${path}`);
    return handler(call);
  });
  return { calls, of: (path: string) => calls.filter((c) => c.path === path) };
};

const roots: HTMLElement[] = [];
const mount = (options: Partial<WidgetOptions> = {}) => {
  const root = document.createElement('div');
  document.body.append(root);
  roots.push(root);
  startWidget({
    root,
    publicId: id,
    embedder: 'https://shop.example',
    parent: null,
    storage: window.localStorage,
    ...options,
  });
  return within(root);
};

const enabled = (element: HTMLElement) => !(element as HTMLButtonElement).disabled;

const send = async (ui: ReturnType<typeof mount>, text: string) => {
  const input = ui.getByLabelText('Your message');
  await waitFor(() => expect(enabled(input)).toBe(true));
  fireEvent.change(input, { target: { value: text } });
  fireEvent.keyDown(input, { key: 'Enter' });
};

afterEach(() => {
  for (const root of roots.splice(0)) root.remove();
});

describe('the widget', () => {
  beforeEach(() => {
    window.localStorage.setItem(storageKey, 'stored-session');
  });

  it('resumes the stored session and shows the title, greeting and earlier conversations', async () => {
    const api = serve({ '/session': () => json(sessionAnswer()) });
    const ui = mount();
    await ui.findByRole('heading', { name: 'Help desk' });
    ui.getByText('Hi! Ask me anything.');
    ui.getByRole('button', { name: /Shipping times/ });
    expect(ui.getByRole('log').getAttribute('aria-live')).toBe('polite');
    expect(enabled(ui.getByRole('button', { name: 'Send message' }))).toBe(true);
    expect(api.of('/session')).toEqual([
      {
        path: '/session',
        method: 'POST',
        headers: expect.objectContaining({ 'X-Chorus-Embedder': 'https://shop.example' }),
        body: { session: 'stored-session' },
      },
    ]);
    expect(window.localStorage.getItem(storageKey)).toBe('sess-1');
  });

  it('streams a reply as safe text, with its sources', async () => {
    const api = serve({
      '/session': () => json(sessionAnswer()),
      '/chat': () =>
        sse([
          start(),
          { type: 'delta', text: 'Orders ship in 2 days. <img src=x onerror="alert(1)"> ' },
          { type: 'delta', text: 'See https://shop.example/shipping.' },
          {
            type: 'sources',
            sources: [{ document: 'Handbook.pdf', position: 'page 3', text: 'We ship in 2 days.' }],
          },
          { type: 'done' },
        ]),
    });
    const ui = mount();
    await send(ui, 'How fast do you ship?');

    await ui.findByText(/Orders ship in 2 days/);
    ui.getByText('How fast do you ship?');
    expect(
      ui.getByRole('link', { name: 'https://shop.example/shipping' }).getAttribute('rel'),
    ).toBe('noopener noreferrer nofollow');
    expect(ui.getByRole('log').querySelector('img')).toBeNull();
    ui.getByText('Sources');
    ui.getByText('Handbook.pdf, page 3');
    ui.getByText('We ship in 2 days.');
    // The earlier conversations make way for this one.
    expect(ui.queryByRole('button', { name: /Shipping times/ })).toBeNull();
    await waitFor(() => expect(enabled(ui.getByLabelText('Your message'))).toBe(true));
    expect((ui.getByLabelText('Your message') as HTMLTextAreaElement).value).toBe('');

    const [chat] = api.of('/chat');
    expect(chat!.headers.Authorization).toBe('Bearer sess-1');
    expect(chat!.body).toEqual({ conversation_id: null, message: 'How fast do you ship?' });

    // The next message continues the conversation the server started.
    await send(ui, 'Thanks');
    await waitFor(() => expect(api.of('/chat')).toHaveLength(2));
    expect(api.of('/chat')[1]!.body).toEqual({ conversation_id: 'c2', message: 'Thanks' });
  });

  it("shows the server's message when a message is refused or the reply fails", async () => {
    let answer = () =>
      json({ error: 'You are sending messages too fast.', code: 'widgets:rate_limited' }, 429);
    serve({ '/session': () => json(sessionAnswer()), '/chat': () => answer() });
    const ui = mount();
    await send(ui, 'One');
    await ui.findByText('You are sending messages too fast.');

    answer = () =>
      sse([
        start(),
        { type: 'error', code: 'widgets:budget_exhausted', message: widgetUnavailableMessage },
      ]);
    await send(ui, 'Two');
    await ui.findByText(widgetUnavailableMessage);

    answer = () => sse([start(), { type: 'delta', text: 'Half a' }]);
    await send(ui, 'Three');
    await ui.findByText(fallbackMessages.cutOff);
    ui.getByText('Half a');

    answer = () => {
      throw new TypeError('Failed to fetch');
    };
    await send(ui, 'Four');
    await ui.findByText(fallbackMessages.network);
  });

  it('shows why no session could start, and tries again on request', async () => {
    let refuse = true;
    serve({
      '/session': () =>
        refuse
          ? json(
              {
                error: 'This chat is for signed-in visitors only.',
                code: 'widgets:signed_visitor_required',
              },
              403,
            )
          : json(sessionAnswer()),
      '/config': () => json(config),
    });
    const ui = mount();
    expect((await ui.findByRole('alert')).textContent).toContain(
      'This chat is for signed-in visitors only.',
    );
    expect(enabled(ui.getByLabelText('Your message'))).toBe(false);
    await ui.findByRole('heading', { name: 'Help desk' });

    refuse = false;
    fireEvent.click(ui.getByRole('button', { name: 'Try again' }));
    await ui.findByText('Hi! Ask me anything.');
    expect(ui.queryByRole('alert')).toBeNull();
    expect(enabled(ui.getByLabelText('Your message'))).toBe(true);
  });

  it('starts a new session once when the server says the session is no longer valid', async () => {
    let sessions = 0;
    let chatFails = 1;
    const api = serve({
      '/session': () => json(sessionAnswer(`sess-${++sessions}`)),
      '/chat': () =>
        chatFails-- > 0
          ? json({ error: 'Session expired.', code: 'widgets:session_invalid' }, 401)
          : sse([start(), { type: 'delta', text: 'Welcome back' }, { type: 'done' }]),
    });
    const ui = mount();
    await send(ui, 'Hello');
    await ui.findByText('Welcome back');
    expect(api.of('/chat').map((c) => c.headers.Authorization)).toEqual([
      'Bearer sess-1',
      'Bearer sess-2',
    ]);
    // The new session starts afresh, not from the stale one.
    expect(api.of('/session')[1]!.body).toEqual({});
    expect(window.localStorage.getItem(storageKey)).toBe('sess-2');

    // Refused again: said so, without starting sessions over and over.
    chatFails = 2;
    await send(ui, 'Again');
    await ui.findByText('Session expired.');
    expect(api.of('/session')).toHaveLength(3);
  });

  it('drops a stored session the server no longer knows', async () => {
    const api = serve({
      '/session': ({ body }) =>
        (body as { session?: string }).session
          ? json({ error: 'Expired.', code: 'widgets:session_invalid' }, 401)
          : json(sessionAnswer('fresh')),
    });
    const ui = mount();
    await ui.findByText('Hi! Ask me anything.');
    expect(api.of('/session').map((c) => c.body)).toEqual([{ session: 'stored-session' }, {}]);
    expect(window.localStorage.getItem(storageKey)).toBe('fresh');
  });

  it('reopens an earlier conversation', async () => {
    const api = serve({
      '/session': () => json(sessionAnswer()),
      '/conversations/c1': () =>
        json({
          id: 'c1',
          messages: [
            {
              id: 'm1',
              role: 'user',
              content: 'When does it ship?',
              sources: [],
              status: 'done',
              created_at: '',
            },
            {
              id: 'm2',
              role: 'assistant',
              content: 'Tomorrow, with `express`.',
              sources: [],
              status: 'done',
              created_at: '',
            },
            {
              id: 'm3',
              role: 'assistant',
              content: 'The reply was stopped.',
              sources: [],
              status: 'failed',
              created_at: '',
            },
          ],
        }),
    });
    const ui = mount();
    fireEvent.click(await ui.findByRole('button', { name: /Shipping times/ }));
    await ui.findByText('When does it ship?');
    expect(ui.getByText('express').tagName).toBe('CODE');
    expect(ui.getByText('The reply was stopped.').classList.contains('error')).toBe(true);
    expect(api.of('/conversations/c1')[0]!.headers.Authorization).toBe('Bearer sess-1');
    expect(ui.getByRole('button', { name: 'New conversation' }).hidden).toBe(false);
  });

  it('says so when its address names no widget', () => {
    const ui = mount({ publicId: null });
    expect(ui.getByRole('alert').textContent).toBe(fallbackMessages.badLink);
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('the widget in a host page', () => {
  const hostWindow = () => ({ postMessage: vi.fn() });
  const fromWindow = (source: unknown, data: unknown) =>
    window.dispatchEvent(
      new MessageEvent('message', {
        data,
        origin: 'https://shop.example',
        source: source as Window,
      }),
    );

  it('says it is ready, and takes the visitor token from the host page only', async () => {
    const api = serve({ '/session': () => json(sessionAnswer()) });
    const parent = hostWindow();
    // A long wait: the session starts when the token comes.
    const ui = mount({ parent: parent as unknown as Window, tokenWaitMs: 60_000 });
    expect(parent.postMessage).toHaveBeenCalledWith({ type: 'chorus:ready' }, '*');

    fromWindow(hostWindow(), { type: 'chorus:visitor-token', token: 'forged' });
    fromWindow(window, { type: 'chorus:visitor-token', token: 'forged' });
    expect(api.calls).toHaveLength(0);

    fromWindow(parent, { type: 'chorus:visitor-token', token: 'signed.jwt' });
    await ui.findByText('Hi! Ask me anything.');
    expect(api.of('/session')[0]!.body).toEqual({ visitor_token: 'signed.jwt' });
  });

  it('starts without a token when none comes in time', async () => {
    const api = serve({ '/session': () => json(sessionAnswer()) });
    const ui = mount({ parent: hostWindow() as unknown as Window, tokenWaitMs: 10 });
    await ui.findByText('Hi! Ask me anything.');
    expect(api.of('/session')[0]!.body).toEqual({});
  });

  it('starts again with a token that comes while a session starts without it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const api = serve({
      '/session': async (call) => {
        const signed = Boolean((call.body as { visitor_token?: string }).visitor_token);
        if (!signed) await held;
        return json(sessionAnswer(signed ? 'sess-signed' : 'sess-anonymous'));
      },
    });
    const parent = hostWindow();
    // The token comes late (a slow host page): the session has started without it.
    const ui = mount({ parent: parent as unknown as Window, tokenWaitMs: 10, storage: null });
    await waitFor(() => expect(api.of('/session')).toHaveLength(1));
    fromWindow(parent, { type: 'chorus:visitor-token', token: 'signed.jwt' });
    release();
    await waitFor(() => expect(api.of('/session')).toHaveLength(2));
    expect(api.of('/session').map((call) => call.body)).toEqual([
      {},
      { visitor_token: 'signed.jwt' },
    ]);
    await ui.findByText('Hi! Ask me anything.');
  });

  it('asks the host page to close it from its close button and on Escape', async () => {
    serve({ '/session': () => json(sessionAnswer()) });
    const parent = hostWindow();
    const ui = mount({ parent: parent as unknown as Window, tokenWaitMs: 10 });
    fireEvent.click(ui.getByRole('button', { name: 'Close chat' }));
    expect(parent.postMessage).toHaveBeenLastCalledWith({ type: 'chorus:close' }, '*');
    parent.postMessage.mockClear();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(parent.postMessage).toHaveBeenCalledWith({ type: 'chorus:close' }, '*');
  });
});
