import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findLoaderScript, readConfig, startLoader, type Loader } from './loader';

const app = 'https://chorus.example';
const id = 'wgt_AbCdEfGhIjKlMnOpQrSt';
const config = {
  public_id: id,
  title: 'Help desk',
  color: '#0ea5e9',
  greeting: 'Hi!',
  position: 'bottom-left',
  require_signed_visitors: false,
};

const loaderTag = (attrs: Record<string, string> = {}) => {
  const script = document.createElement('script');
  // Not in the document: a test must not make happy-dom fetch the script.
  script.setAttribute('src', `${app}/embed.js`);
  script.dataset.widget = id;
  for (const [name, value] of Object.entries(attrs)) script.setAttribute(name, value);
  return script;
};

const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const started: Loader[] = [];
const start = async (script = loaderTag()) => {
  const loader = startLoader(script);
  if (!loader) throw new Error('the loader did not start');
  started.push(loader);
  await loader.drawn;
  return loader;
};

const launcher = (loader: Loader) => loader.root.querySelector<HTMLButtonElement>('.launcher')!;
const panel = (loader: Loader) => loader.root.querySelector<HTMLElement>('.panel')!;

/** The iframe's window as the loader sees it: the test plays the widget's page. */
const fakeFrameWindow = (frame: HTMLIFrameElement) => {
  const frameWindow = { postMessage: vi.fn() };
  Object.defineProperty(frame, 'contentWindow', { value: frameWindow, configurable: true });
  return frameWindow;
};

const fromFrame = (source: unknown, data: unknown, origin = app) =>
  window.dispatchEvent(new MessageEvent('message', { data, origin, source: source as Window }));

beforeEach(() => {
  vi.mocked(fetch).mockImplementation(() => Promise.resolve(jsonResponse(config)));
  // happy-dom would try to load an iframe's page (and complain on the console that it may not):
  // an empty srcdoc, which wins over src, keeps the iframes of these tests empty.
  const createElement = document.createElement.bind(document);
  vi.spyOn(document, 'createElement').mockImplementation((tag: string) => {
    const element = createElement(tag);
    if (tag === 'iframe') element.setAttribute('srcdoc', '');
    return element;
  });
});

afterEach(() => {
  for (const loader of started.splice(0)) loader.host.remove();
});

describe('findLoaderScript', () => {
  it('finds the tag by its data-widget and a src ending in /embed.js', () => {
    // Not JavaScript: happy-dom does not try to load them.
    const other = loaderTag({ src: 'https://cdn.example/other.js', type: 'text/plain' });
    const tag = loaderTag({ type: 'text/plain' });
    document.head.append(other, tag);
    try {
      expect(findLoaderScript(document)).toBe(tag);
    } finally {
      other.remove();
      tag.remove();
    }
  });
});

describe('readConfig', () => {
  it('keeps what the button needs and falls back for anything odd', () => {
    expect(readConfig(config)).toEqual({
      title: 'Help desk',
      color: '#0ea5e9',
      position: 'bottom-left',
    });
    expect(readConfig({ title: 'T', color: 'expression(alert(1))', position: 'top' })).toEqual({
      title: 'T',
      color: '#4f46e5',
      position: 'bottom-right',
    });
    expect(readConfig({ title: '' })).toBeNull();
    expect(readConfig('nope')).toBeNull();
  });
});

describe('startLoader', () => {
  it('loads the config from the app without credentials and draws the button in a Shadow DOM', async () => {
    const loader = await start();
    expect(fetch).toHaveBeenCalledWith(`${app}/widget/v1/${id}/config`, {
      mode: 'cors',
      credentials: 'omit',
    });
    expect(loader.host.isConnected).toBe(true);
    expect(loader.host.shadowRoot).toBe(loader.root);
    // Nothing of the widget is in the host page's own DOM.
    expect(document.querySelector('.launcher')).toBeNull();
    const button = launcher(loader);
    expect(button.getAttribute('aria-label')).toBe('Open chat: Help desk');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const wrapper = button.parentElement!;
    expect(wrapper.className).toBe('left');
    expect(wrapper.style.getPropertyValue('--chorus-color')).toBe('#0ea5e9');
  });

  it('draws nothing and warns once when the config cannot be loaded', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.mocked(fetch).mockResolvedValue(jsonResponse({ error: 'Not here', code: 'x' }, 403));
    const loader = startLoader(loaderTag())!;
    started.push(loader);
    expect(await loader.drawn).toBe(false);
    expect(loader.host.isConnected).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);

    vi.mocked(fetch).mockRejectedValue(new TypeError('Failed to fetch'));
    const offline = startLoader(loaderTag())!;
    started.push(offline);
    expect(await offline.drawn).toBe(false);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('refuses a tag without a valid widget id', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(startLoader(loaderTag({ 'data-widget': '../../rest/v1/me' }))).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('makes the iframe once, on the first open, and toggles the panel', async () => {
    const loader = await start();
    const button = launcher(loader);
    expect(loader.root.querySelector('iframe')).toBeNull();

    button.click();
    const frames = loader.root.querySelectorAll('iframe');
    expect(frames).toHaveLength(1);
    const frame = frames[0]!;
    expect(frame.getAttribute('src')).toBe(`${app}/embed/${id}`);
    expect(frame.title).toBe('Help desk');
    expect(frame.referrerPolicy).toBe('strict-origin');
    expect(frame.hasAttribute('allow')).toBe(false);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-label')).toBe('Close chat: Help desk');
    expect(panel(loader).parentElement!.classList.contains('open')).toBe(true);

    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(panel(loader).parentElement!.classList.contains('open')).toBe(false);

    button.click();
    expect(loader.root.querySelectorAll('iframe')).toHaveLength(1);
    expect(loader.root.querySelector('iframe')).toBe(frame);
  });

  it('closes on Escape', async () => {
    const loader = await start();
    launcher(loader).click();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(launcher(loader).getAttribute('aria-expanded')).toBe('false');
  });

  it('opens when asked before the button was drawn, and through its API', async () => {
    const loader = startLoader(loaderTag())!;
    started.push(loader);
    loader.api.open();
    await loader.drawn;
    expect(launcher(loader).getAttribute('aria-expanded')).toBe('true');
    loader.api.close();
    expect(launcher(loader).getAttribute('aria-expanded')).toBe('false');
  });

  it('gives the visitor token only to its own iframe from the app, and only to the app', async () => {
    const loader = await start(loaderTag({ 'data-visitor-token': 'signed.jwt.token' }));
    launcher(loader).click();
    const frameWindow = fakeFrameWindow(loader.root.querySelector('iframe')!);

    // Another origin, or another window of the app's origin, is not the widget.
    fromFrame(frameWindow, { type: 'chorus:ready' }, 'https://evil.example');
    fromFrame({ postMessage: vi.fn() }, { type: 'chorus:ready' });
    fromFrame(window, { type: 'chorus:ready' });
    expect(frameWindow.postMessage).not.toHaveBeenCalled();

    fromFrame(frameWindow, { type: 'chorus:ready' });
    expect(frameWindow.postMessage).toHaveBeenCalledWith(
      { type: 'chorus:visitor-token', token: 'signed.jwt.token' },
      app,
    );
    // The panel is open: the widget is asked to focus its input.
    expect(frameWindow.postMessage).toHaveBeenCalledWith({ type: 'chorus:focus' }, app);
    for (const [, targetOrigin] of frameWindow.postMessage.mock.calls)
      expect(targetOrigin).toBe(app);

    frameWindow.postMessage.mockClear();
    loader.api.identify('another.jwt.token');
    expect(frameWindow.postMessage).toHaveBeenCalledWith(
      { type: 'chorus:visitor-token', token: 'another.jwt.token' },
      app,
    );
  });

  it('tells the iframe there is no token, so it need not wait for one', async () => {
    const loader = await start();
    launcher(loader).click();
    const frameWindow = fakeFrameWindow(loader.root.querySelector('iframe')!);
    fromFrame(frameWindow, { type: 'chorus:ready' });
    expect(frameWindow.postMessage).toHaveBeenCalledWith(
      { type: 'chorus:visitor-token', token: null },
      app,
    );
  });

  it('closes when its iframe asks, and ignores the same message from anyone else', async () => {
    const loader = await start();
    launcher(loader).click();
    const frameWindow = fakeFrameWindow(loader.root.querySelector('iframe')!);

    fromFrame(frameWindow, { type: 'chorus:close' }, 'https://evil.example');
    expect(launcher(loader).getAttribute('aria-expanded')).toBe('true');

    fromFrame(frameWindow, { type: 'chorus:close' });
    expect(launcher(loader).getAttribute('aria-expanded')).toBe('false');
  });
});
