import type { VisitorSession, WidgetMessage, WidgetStreamEvent } from '@chorus/shared/api/widgets';
import { hexColor, messageType, textColorOn, type FromWidget } from '../common';
import {
  asWidgetError,
  callWidgetApi,
  fallbackMessages,
  isSessionInvalid,
  type ApiOptions,
} from './api';
import { renderText } from './render-text';
import { createSseParser, parseStreamEvent } from './sse';

type Source = Extract<WidgetStreamEvent, { type: 'sources' }>['sources'][number];
type ConversationItem = VisitorSession['conversations'][number];

export type WidgetOptions = {
  root: HTMLElement;
  /** From the page's path, /embed/{publicId}; null when the path names no widget. */
  publicId: string | null;
  /** The host page's origin, when known. */
  embedder: string | null;
  /** The window of the host page, when the widget is framed in one. */
  parent: Window | null;
  /** Where the visitor session is kept; null when the browser refuses storage to the iframe. */
  storage: Storage | null;
  /** How long to wait for the loader's visitor token before starting without one. */
  tokenWaitMs?: number;
};

/** contract: widgetLimits.message (a test keeps the two equal). */
export const messageMaxLength = 4_000;

const storageKey = (publicId: string) => `chorus-widget:${publicId}`;

type Props = { className?: string; text?: string; attrs?: Record<string, string> };

/** The widget's user interface and its calls: plain DOM, no framework (it must stay small). */
export const startWidget = (options: WidgetOptions) => {
  const { root, publicId, embedder, parent, storage, tokenWaitMs = 300 } = options;
  const doc = root.ownerDocument;
  const win = doc.defaultView ?? window;

  const el = <K extends keyof HTMLElementTagNameMap>(
    tag: K,
    { className, text, attrs }: Props = {},
    ...children: Node[]
  ): HTMLElementTagNameMap[K] => {
    const node = doc.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    for (const [name, value] of Object.entries(attrs ?? {})) node.setAttribute(name, value);
    node.append(...children);
    return node;
  };

  // ---- The frame of the widget -------------------------------------------------------------
  const title = el('h1', { className: 'title', text: 'Chat' });
  const newButton = el('button', {
    className: 'icon-button',
    text: '+',
    attrs: { type: 'button', 'aria-label': 'New conversation', title: 'New conversation' },
  });
  newButton.hidden = true;
  const closeButton = el('button', {
    className: 'icon-button',
    text: '×',
    attrs: { type: 'button', 'aria-label': 'Close chat', title: 'Close chat' },
  });
  closeButton.hidden = parent === null;
  const header = el('header', { className: 'head' }, title, newButton, closeButton);
  const log = el('div', {
    className: 'log',
    attrs: { role: 'log', 'aria-live': 'polite', 'aria-label': 'Messages', tabindex: '0' },
  });
  const notice = el('div', { className: 'notice', attrs: { role: 'alert' } });
  notice.hidden = true;
  const input = el('textarea', {
    className: 'input',
    attrs: {
      id: 'chorus-message',
      rows: '1',
      placeholder: 'Write a message…',
      maxlength: String(messageMaxLength),
    },
  });
  const sendButton = el('button', {
    className: 'send',
    text: '↑',
    attrs: { type: 'submit', 'aria-label': 'Send message', title: 'Send message' },
  });
  const form = el(
    'form',
    { className: 'composer' },
    el('label', {
      className: 'visually-hidden',
      text: 'Your message',
      attrs: { for: 'chorus-message' },
    }),
    input,
    sendButton,
  );
  root.replaceChildren(header, log, notice, form);
  root.classList.add('widget');

  // ---- State -------------------------------------------------------------------------------
  let greeting = '';
  let session: string | null = null;
  let conversations: ConversationItem[] = [];
  let conversationId: string | null = null;
  let streaming = false;
  let token: string | null = null;
  /** The token the current session was started with. */
  let sessionToken: string | null = null;
  let starting: Promise<void> | null = null;

  const api: ApiOptions | null = publicId ? { publicId, embedder } : null;

  const postToParent = (message: FromWidget) => parent?.postMessage(message, '*');

  const setBusy = (busy: boolean) => {
    streaming = busy;
    input.disabled = busy || session === null;
    sendButton.disabled = busy || session === null;
    newButton.disabled = busy;
  };

  const showNotice = (message: string | null, retry?: () => void) => {
    notice.replaceChildren();
    notice.hidden = message === null;
    if (message === null) return;
    notice.append(el('span', { text: message }));
    if (retry) {
      const again = el('button', {
        className: 'link-button',
        text: 'Try again',
        attrs: { type: 'button' },
      });
      again.addEventListener('click', retry);
      notice.append(' ', again);
    }
  };

  const applyConfig = (config: { title?: unknown; color?: unknown; greeting?: unknown }) => {
    if (typeof config.title === 'string' && config.title) {
      title.textContent = config.title;
      doc.title = config.title;
    }
    const color = hexColor(config.color);
    root.style.setProperty('--chorus-color', color);
    root.style.setProperty('--chorus-text', textColorOn(color));
    if (typeof config.greeting === 'string') greeting = config.greeting;
  };
  applyConfig({});

  const scrollToEnd = () => {
    log.scrollTop = log.scrollHeight;
  };

  // ---- Messages ----------------------------------------------------------------------------
  const sourcesNode = (sources: Source[]) => {
    const list = el('ol', { className: 'sources-list' });
    for (const source of sources) {
      const where = source.position ? `${source.document}, ${source.position}` : source.document;
      const snippet = source.text.length > 400 ? `${source.text.slice(0, 400)}…` : source.text;
      list.append(
        el(
          'li',
          {},
          el(
            'details',
            {},
            el('summary', { text: where }),
            el('p', { className: 'snippet', text: snippet }),
          ),
        ),
      );
    }
    return el('div', { className: 'sources' }, el('p', { text: 'Sources' }), list);
  };

  const errorLine = (message: string) => el('p', { className: 'error', text: message });

  /** An assistant bubble whose text, sources and error can be set as the reply streams. */
  const assistantBubble = () => {
    const body = el('div', { className: 'text' });
    const extra = el('div');
    const node = el('div', { className: 'msg assistant' }, body, extra);
    let text = '';
    let dirty = false;
    let scheduled = false;
    const paint = () => {
      dirty = false;
      body.replaceChildren(renderText(text, doc));
      scrollToEnd();
    };
    return {
      node,
      /** Shown at the next frame: a reply arrives in many small pieces. */
      setText(next: string) {
        text = next;
        dirty = true;
        if (scheduled) return;
        scheduled = true;
        win.requestAnimationFrame(() => {
          scheduled = false;
          if (dirty) paint();
        });
      },
      finish({ sources = [], error }: { sources?: Source[]; error?: string } = {}) {
        paint();
        node.classList.remove('pending');
        node.removeAttribute('aria-busy');
        extra.replaceChildren();
        if (sources.length > 0) extra.append(sourcesNode(sources));
        if (error) extra.append(errorLine(error));
        scrollToEnd();
      },
      pending() {
        node.classList.add('pending');
        node.setAttribute('aria-busy', 'true');
        text = '';
        body.replaceChildren(
          el(
            'span',
            { className: 'typing' },
            el('span', { className: 'visually-hidden', text: 'Writing a reply…' }),
          ),
        );
        extra.replaceChildren();
      },
    };
  };

  const userBubble = (text: string) =>
    el('div', { className: 'msg user' }, el('div', { className: 'text', text }));

  const messageNode = (message: WidgetMessage) => {
    if (message.role === 'user') return userBubble(message.content);
    const bubble = assistantBubble();
    if (message.status === 'failed') {
      bubble.finish({ error: message.content || fallbackMessages.cutOff });
    } else {
      bubble.setText(message.content);
      bubble.finish({ sources: message.sources });
    }
    return bubble.node;
  };

  const greetingNode = () =>
    greeting.trim()
      ? el(
          'div',
          { className: 'msg assistant greeting' },
          el('div', { className: 'text' }, renderText(greeting, doc)),
        )
      : null;

  const historyNode = () => {
    if (conversations.length === 0) return null;
    const list = el('ul', { className: 'history-list' });
    for (const conversation of conversations.slice(0, 10)) {
      const when = new Date(conversation.updated_at);
      const button = el(
        'button',
        { className: 'history-item', attrs: { type: 'button' } },
        el('span', { className: 'history-title', text: conversation.title || 'Conversation' }),
        el('span', {
          className: 'history-date',
          text: Number.isNaN(when.getTime())
            ? ''
            : when.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }),
        }),
      );
      button.addEventListener('click', () => void openConversation(conversation.id));
      list.append(el('li', {}, button));
    }
    return el(
      'section',
      { className: 'history', attrs: { 'aria-label': 'Your earlier conversations' } },
      el('h2', { text: 'Earlier conversations' }),
      list,
    );
  };

  const showNewConversation = () => {
    conversationId = null;
    newButton.hidden = true;
    log.replaceChildren(...[greetingNode(), historyNode()].filter((n) => n !== null));
  };

  // ---- Session -----------------------------------------------------------------------------
  const readStored = () => {
    try {
      return (publicId && storage?.getItem(storageKey(publicId))) || null;
    } catch {
      return null;
    }
  };
  const store = (value: string | null) => {
    if (!publicId) return;
    try {
      if (value) storage?.setItem(storageKey(publicId), value);
      else storage?.removeItem(storageKey(publicId));
    } catch {
      // Storage refused (a browser blocking third-party storage): the session lives in memory.
    }
  };

  const requestSession = async (stored: string | null, visitorToken: string | null) => {
    const res = await callWidgetApi(api!, '/session', {
      body: {
        ...(stored && { session: stored }),
        ...(visitorToken && { visitor_token: visitorToken }),
      },
    });
    return (await res.json()) as VisitorSession;
  };

  /** Starts a visitor session, or resumes the stored one; a stale one is dropped and replaced. */
  const startSession = () =>
    (starting ??= (async () => {
      session = null;
      setBusy(streaming);
      const stored = readStored();
      // The token this session is started with: one arriving meanwhile starts another after it.
      const withToken = token;
      let answer: VisitorSession;
      try {
        try {
          answer = await requestSession(stored, withToken);
        } catch (error) {
          if (!(stored && isSessionInvalid(error))) throw error;
          store(null);
          answer = await requestSession(null, withToken);
        }
      } finally {
        starting = null;
      }
      session = answer.session;
      sessionToken = withToken;
      store(session);
      applyConfig(answer.config);
      conversations = Array.isArray(answer.conversations) ? answer.conversations : [];
      setBusy(streaming);
    })());

  /**
   * Runs a call with the session; when the server says the session is no longer valid, starts a
   * new one and runs the call once more.
   */
  const withSession = async <T>(call: (session: string) => Promise<T>): Promise<T> => {
    if (!session) await startSession();
    try {
      return await call(session!);
    } catch (error) {
      if (!isSessionInvalid(error)) throw error;
      store(null);
      await startSession();
      if (!conversations.some((c) => c.id === conversationId)) conversationId = null;
      return call(session!);
    }
  };

  /** The config alone, for the header, when no session could be started. */
  const loadConfigForHeader = async () => {
    try {
      const res = await callWidgetApi(api!, '/config', {});
      applyConfig((await res.json()) as Record<string, unknown>);
    } catch {
      // The notice already says what went wrong.
    }
  };

  const begin = async () => {
    showNotice(null);
    log.replaceChildren();
    try {
      await startSession();
      showNewConversation();
      if (doc.hasFocus()) input.focus();
    } catch (error) {
      showNotice(asWidgetError(error).message, () => void begin());
      void loadConfigForHeader();
    }
  };

  // ---- Conversations -----------------------------------------------------------------------
  const openConversation = async (id: string) => {
    if (streaming) return;
    showNotice(null);
    setBusy(true);
    try {
      const conversation = await withSession(async (bearer) => {
        const res = await callWidgetApi(api!, `/conversations/${encodeURIComponent(id)}`, {
          session: bearer,
        });
        return (await res.json()) as { messages?: WidgetMessage[] };
      });
      conversationId = id;
      newButton.hidden = false;
      const greetingElement = greetingNode();
      log.replaceChildren(
        ...(greetingElement ? [greetingElement] : []),
        ...(conversation.messages ?? []).map(messageNode),
      );
      scrollToEnd();
    } catch (error) {
      showNotice(asWidgetError(error).message);
    } finally {
      setBusy(false);
    }
  };

  /** Streams the reply to one message into its bubble; throws when no reply could start. */
  const streamReply = async (
    bearer: string,
    message: string,
    bubble: ReturnType<typeof assistantBubble>,
  ) => {
    bubble.pending();
    const res = await callWidgetApi(api!, '/chat', {
      session: bearer,
      accept: 'text/event-stream',
      body: { conversation_id: conversationId, message },
    });
    let text = '';
    let sources: Source[] = [];
    let error: string | undefined;
    let done = false;
    const handle = (event: WidgetStreamEvent) => {
      if (event.type === 'start') {
        conversationId = event.conversation_id;
        if (!conversations.some((c) => c.id === event.conversation_id)) {
          const updatedAt = new Date().toISOString();
          conversations.unshift({
            id: event.conversation_id,
            title: message.slice(0, 60),
            updated_at: updatedAt,
          });
        }
      } else if (event.type === 'delta') {
        text += event.text;
        bubble.setText(text);
      } else if (event.type === 'sources') {
        sources = event.sources;
      } else if (event.type === 'error') {
        error = event.message || fallbackMessages.failed;
      } else {
        done = true;
      }
    };
    const parser = createSseParser((data) => {
      const event = parseStreamEvent(data);
      if (event) handle(event);
    });
    try {
      if (!res.body) throw new Error('no body');
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done: ended, value } = await reader.read();
        if (ended) break;
        parser.push(decoder.decode(value, { stream: true }));
      }
      parser.push(decoder.decode());
      parser.end();
    } catch {
      error ??= fallbackMessages.cutOff;
    }
    if (!done && !error) error = fallbackMessages.cutOff;
    bubble.setText(text);
    bubble.finish({ sources, error });
  };

  const send = async (message: string) => {
    if (streaming || session === null || message.trim() === '') return;
    showNotice(null);
    log.querySelector('.history')?.remove();
    newButton.hidden = false;
    const bubble = assistantBubble();
    log.append(userBubble(message), bubble.node);
    scrollToEnd();
    input.value = '';
    resizeInput();
    setBusy(true);
    try {
      await withSession((bearer) => streamReply(bearer, message, bubble));
    } catch (error) {
      bubble.finish({ error: asWidgetError(error).message });
    } finally {
      setBusy(false);
      input.focus();
    }
  };

  // ---- Input -------------------------------------------------------------------------------
  const resizeInput = () => {
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, 120)}px`;
  };
  input.addEventListener('input', resizeInput);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void send(input.value);
    }
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void send(input.value);
  });
  newButton.addEventListener('click', () => {
    if (streaming) return;
    showNotice(null);
    showNewConversation();
    input.focus();
  });
  closeButton.addEventListener('click', () => postToParent({ type: 'chorus:close' }));
  doc.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') postToParent({ type: 'chorus:close' });
  });

  // ---- Start -------------------------------------------------------------------------------
  if (!api) {
    showNotice(fallbackMessages.badLink);
    setBusy(false);
    return;
  }
  setBusy(false);

  let tokenArrived: (() => void) | null = null;
  win.addEventListener('message', (event: MessageEvent) => {
    // Only the host page's loader speaks to the widget.
    if (parent === null || event.source !== parent) return;
    const type = messageType(event.data);
    if (type === 'chorus:focus') {
      input.focus();
    } else if (type === 'chorus:visitor-token') {
      const value = (event.data as { token?: unknown }).token;
      token = typeof value === 'string' && value !== '' ? value : null;
      if (tokenArrived) return tokenArrived();
      // Identified later (the visitor signed in on the host page): a session for them, once the
      // start under way (made without this token) has ended.
      const restart = () => {
        if (token !== sessionToken && !streaming && !starting) void begin();
      };
      if (starting) void starting.then(restart, restart);
      else restart();
    }
  });

  postToParent({ type: 'chorus:ready' });
  const tokenWait =
    parent === null
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          tokenArrived = resolve;
          win.setTimeout(resolve, tokenWaitMs);
        });
  void tokenWait.then(() => {
    tokenArrived = null;
    return begin();
  });
};
