import { hexColor, messageType, publicIdPattern, textColorOn, type ToWidget } from '../common';

/** The loader's public API, as `window.ChorusWidget`. */
export type ChorusWidgetApi = {
  open: () => void;
  close: () => void;
  /** A visitor token signed by the host site's server, or null to drop it. */
  identify: (token: string | null) => void;
};

export type LoaderConfig = {
  title: string;
  color: string;
  position: 'bottom-right' | 'bottom-left';
};

export type Loader = {
  api: ChorusWidgetApi;
  /** The element the loader adds to the page; its Shadow DOM holds the button and the panel. */
  host: HTMLElement;
  root: ShadowRoot;
  /** Settles once the widget's config is loaded (true) or could not be (false: nothing drawn). */
  drawn: Promise<boolean>;
};

const warn = (text: string) => console.warn(`Chorus widget: ${text}`);

/** The loader's own `<script>` tag: the one running now, or else the first that looks like it. */
export const findLoaderScript = (doc: Document): HTMLScriptElement | null => {
  const current = doc.currentScript;
  if (current instanceof HTMLScriptElement && current.dataset.widget !== undefined) return current;
  const scripts = Array.from(doc.querySelectorAll<HTMLScriptElement>('script[data-widget]'));
  return scripts.find((s) => /\/embed\.js(?:[?#]|$)/.test(s.src)) ?? null;
};

/** What the loader takes from GET /widget/v1/{id}/config; null when it is not a config. */
export const readConfig = (body: unknown): LoaderConfig | null => {
  if (typeof body !== 'object' || body === null) return null;
  const { title, color, position } = body as Record<string, unknown>;
  if (typeof title !== 'string' || title.trim() === '') return null;
  return {
    title,
    color: hexColor(color),
    position: position === 'bottom-left' ? 'bottom-left' : 'bottom-right',
  };
};

// The host page's styles cannot reach into its Shadow DOM, and `all: initial` stops inherited
// ones (font, colour, line height) at its border.
const css = `
:host{all:initial}
.launcher,.panel{position:fixed;z-index:2147483000;right:20px}
.left .launcher,.left .panel{right:auto;left:20px}
.launcher{bottom:20px;width:56px;height:56px;margin:0;padding:0;border:0;border-radius:50%;display:flex;align-items:center;justify-content:center;cursor:pointer;background:var(--chorus-color);color:var(--chorus-text);box-shadow:0 4px 14px rgba(0,0,0,.25);transition:transform .15s}
.launcher:hover{transform:scale(1.06)}
.launcher:focus-visible{outline:3px solid var(--chorus-color);outline-offset:3px}
.launcher svg{width:26px;height:26px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.panel{display:none;bottom:88px;width:380px;height:560px;max-width:calc(100vw - 40px);max-height:calc(100vh - 108px);border-radius:14px;overflow:hidden;background:#fff;box-shadow:0 12px 40px rgba(0,0,0,.3)}
.open .panel{display:block}
.panel iframe{display:block;width:100%;height:100%;border:0}
@media (max-width:480px){.open .panel{inset:0;width:auto;height:auto;max-width:none;max-height:none;border-radius:0}.open .launcher{display:none}}
@media (prefers-reduced-motion:reduce){.launcher{transition:none}}
`;

const svgNs = 'http://www.w3.org/2000/svg';

/** Lucide's message-circle and x, drawn with DOM calls. */
const icon = (doc: Document, paths: string[]) => {
  const svg = doc.createElementNS(svgNs, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  for (const d of paths) {
    const path = doc.createElementNS(svgNs, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
};
const chatIcon = ['M7.9 20A9 9 0 1 0 4 16.1L2 22Z'];
const closeIcon = ['M18 6 6 18', 'm6 6 12 12'];

/**
 * Adds a style sheet to the Shadow DOM. A constructed one first: a host page whose CSP forbids
 * inline styles still lets script build style sheets, while it would block a `<style>` element.
 */
const addStyles = (doc: Document, root: ShadowRoot) => {
  const view = doc.defaultView;
  if (view && 'adoptedStyleSheets' in root && 'replaceSync' in view.CSSStyleSheet.prototype) {
    try {
      const sheet = new view.CSSStyleSheet();
      sheet.replaceSync(css);
      root.adoptedStyleSheets = [sheet];
      return;
    } catch {
      // Fall back to a <style> element below.
    }
  }
  const style = doc.createElement('style');
  style.textContent = css;
  root.append(style);
};

/**
 * Starts the widget of a loader `<script>` tag: loads its config from the app, then draws the
 * launcher button; the iframe is made on the first open. Null (after a warning) when the tag names
 * no valid widget.
 */
export const startLoader = (script: HTMLScriptElement, win: Window = window): Loader | null => {
  const doc = win.document;
  const id = script.dataset.widget ?? '';
  if (!publicIdPattern.test(id)) {
    warn(`"${id}" is not a widget id. Copy the snippet from the widget's page again.`);
    return null;
  }
  let appOrigin: string;
  try {
    appOrigin = new URL(script.src, doc.baseURI).origin;
  } catch {
    warn('the script has no valid src.');
    return null;
  }

  let token: string | null = script.dataset.visitorToken || null;
  let isOpen = false;
  /** open() was called before the button was drawn. */
  let openWhenDrawn = false;
  let frame: HTMLIFrameElement | null = null;
  let frameReady = false;
  let ui: { wrapper: HTMLDivElement; button: HTMLButtonElement; panel: HTMLDivElement } | null =
    null;
  let title = '';

  const host = doc.createElement('div');
  host.setAttribute('data-chorus-widget', id);
  const root = host.attachShadow({ mode: 'open' });

  const send = (message: ToWidget) => frame?.contentWindow?.postMessage(message, appOrigin);

  const setOpen = (open: boolean, { focusButton = false } = {}) => {
    if (!ui) {
      openWhenDrawn = open;
      return;
    }
    isOpen = open;
    if (open && !frame) {
      frame = doc.createElement('iframe');
      frame.src = `${appOrigin}/embed/${id}`;
      frame.title = title;
      // The iframe learns the host page's origin (not its path) from the referrer.
      frame.referrerPolicy = 'strict-origin';
      ui.panel.append(frame);
    }
    ui.wrapper.classList.toggle('open', open);
    ui.button.setAttribute('aria-expanded', String(open));
    ui.button.setAttribute('aria-label', `${open ? 'Close' : 'Open'} chat: ${title}`);
    ui.button.replaceChildren(icon(doc, open ? closeIcon : chatIcon));
    if (open && frameReady) send({ type: 'chorus:focus' });
    if (!open && focusButton) ui.button.focus();
  };

  const draw = (config: LoaderConfig) => {
    title = config.title;
    addStyles(doc, root);
    const wrapper = doc.createElement('div');
    wrapper.className = config.position === 'bottom-left' ? 'left' : 'right';
    wrapper.style.setProperty('--chorus-color', config.color);
    wrapper.style.setProperty('--chorus-text', textColorOn(config.color));
    const panel = doc.createElement('div');
    panel.className = 'panel';
    panel.id = 'chorus-panel';
    const button = doc.createElement('button');
    button.type = 'button';
    button.className = 'launcher';
    button.setAttribute('aria-controls', panel.id);
    button.addEventListener('click', () => setOpen(!isOpen));
    wrapper.append(panel, button);
    root.append(wrapper);
    (doc.body ?? doc.documentElement).append(host);
    ui = { wrapper, button, panel };
    setOpen(openWhenDrawn);
  };

  win.addEventListener('message', (event: MessageEvent) => {
    // Only the widget's own iframe, as served by the app, talks to the loader.
    const from = frame?.contentWindow;
    if (!from || event.source !== from || event.origin !== appOrigin) return;
    const type = messageType(event.data);
    if (type === 'chorus:ready') {
      frameReady = true;
      send({ type: 'chorus:visitor-token', token });
      if (isOpen) send({ type: 'chorus:focus' });
    } else if (type === 'chorus:close') {
      setOpen(false, { focusButton: true });
    }
  });

  doc.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && isOpen) setOpen(false, { focusButton: true });
  });

  const drawn = win
    .fetch(`${appOrigin}/widget/v1/${id}/config`, { mode: 'cors', credentials: 'omit' })
    .then(async (res) => {
      if (!res.ok) throw new Error(`the app answered ${res.status}`);
      const config = readConfig(await res.json());
      if (!config) throw new Error('the app sent no widget config');
      draw(config);
      return true;
    })
    .catch((error: unknown) => {
      warn(
        `widget ${id} could not be loaded (${error instanceof Error ? error.message : 'unknown error'}), so nothing is shown. Is this site on the widget's allowed origins?`,
      );
      return false;
    });

  const api: ChorusWidgetApi = {
    open: () => setOpen(true),
    close: () => setOpen(false),
    identify: (next) => {
      token = next || null;
      if (frameReady) send({ type: 'chorus:visitor-token', token });
    },
  };
  return { api, host, root, drawn };
};
