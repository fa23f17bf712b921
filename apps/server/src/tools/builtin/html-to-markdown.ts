import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

type HtmlDocument = ReturnType<typeof parseHTML>['document'];

/** What a page reads as: its title and its text as Markdown. */
export type ReadablePage = { title: string; markdown: string };

// Readability's own threshold for a document worth reading (isProbablyReaderable).
const articleMinimumLength = 140;
// Past this many elements Readability gives up (it throws) and the plain body is used.
const maxElementsToParse = 50_000;

// Never content: code, styles, embedded documents and the page's navigation.
const noise = 'script, style, noscript, template, nav, iframe, object, embed, svg, canvas';

/**
 * linkedom builds no <html>/<body> around a fragment (and then has no body at all): wrap one
 * that lacks either, as a browser would.
 */
const loadDocument = (html: string): HtmlDocument => {
  const whole = /<html[\s>]/i.test(html) && /<body[\s>]/i.test(html);
  return parseHTML(whole ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`)
    .document;
};

/**
 * Links and images made absolute against the page's URL so they still lead somewhere once the
 * text leaves the page; `javascript:` links lose their target, inline `data:` images go.
 */
const resolveLinks = (document: HtmlDocument, baseUrl: string) => {
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute) ?? '';
      let resolved: URL | undefined;
      try {
        resolved = new URL(value, baseUrl);
      } catch {
        resolved = undefined;
      }
      const usable =
        resolved && ['http:', 'https:', 'mailto:'].includes(resolved.protocol) && resolved.href;
      if (usable) element.setAttribute(attribute, usable);
      else if (attribute === 'src') element.remove();
      else element.removeAttribute(attribute);
    }
  }
};

const clean = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The main article as Readability finds it, or nothing when the page has none worth the name. */
const readArticle = (html: string, baseUrl: string) => {
  const document = loadDocument(html);
  resolveLinks(document, baseUrl);
  try {
    const article = new Readability(document as unknown as Document, {
      maxElemsToParse: maxElementsToParse,
    }).parse();
    if (article?.content && clean(article.textContent).length >= articleMinimumLength) {
      return { title: clean(article.title), html: article.content };
    }
  } catch {
    // Too many elements, or markup Readability cannot walk: the plain body follows.
  }
  return undefined;
};

/** The page's body without its code, styles and navigation. */
const readBody = (html: string, baseUrl: string) => {
  const document = loadDocument(html);
  resolveLinks(document, baseUrl);
  for (const element of document.querySelectorAll(noise)) element.remove();
  return {
    title: clean(document.querySelector('title')?.textContent),
    html: document.body?.innerHTML ?? '',
  };
};

const turndown = () => {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  });
  // Readability keeps some of these; they are never text.
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed']);
  return service;
};

/**
 * An HTML page as readable Markdown: the article Readability finds in it, or else the body
 * without scripts, styles and navigation. `baseUrl` makes relative links absolute.
 */
export const htmlToMarkdown = (html: string, baseUrl: string): ReadablePage => {
  const article = readArticle(html, baseUrl);
  const page = article ?? readBody(html, baseUrl);
  const title = page.title || (article ? readBody(html, baseUrl).title : '');
  const markdown = turndown()
    .turndown(page.html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, markdown };
};
