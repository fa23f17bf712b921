// Build time only (the Vite plugin beside this file and its tests): turns one help article, Markdown
// with a small front matter, into the HTML its page shows and the plain text the search reads.
// The articles are our own, kept in the repository, so their HTML is trusted; raw HTML in them is
// refused all the same, so nothing but Markdown reaches the page.
import {
  Marked,
  Renderer,
  type RendererObject,
  type Token,
  type Tokens,
  type TokensList,
} from 'marked';
import {
  helpDirectives,
  type HelpArticle,
  type HelpArticlePart,
  type HelpDirective,
  type HelpFaqItem,
  type HelpHeading,
  type HelpSearchDocument,
  type HelpSearchSection,
} from '../content-types.ts';
import type { StaticBlock } from './provider-block.ts';

export type CompiledArticle = {
  article: HelpArticle;
  search: HelpSearchDocument;
  /** Every link target written in the article, to check the ones into the help center. */
  links: string[];
};

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const directivePattern = /^<!--\s*help:([a-z-]+)\s*-->$/;

const fail = (slug: string, problem: string): never => {
  throw new Error(`Help article "${slug}": ${problem}`);
};

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

const decodeEntities = (text: string) =>
  text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

/** "Keys, providers & Ollama" → "keys-providers-ollama": the anchor of a heading. */
export const slugify = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

type FrontMatter = Omit<HelpArticle, 'headings' | 'parts'>;

/**
 * `---`, then one `key: value` a line (`related` is a comma-separated list of slugs), then `---`.
 * YAML is more than an article needs; this reads exactly what one may say, and refuses the rest.
 */
export const parseFrontMatter = (
  slug: string,
  source: string,
): { meta: FrontMatter; body: string } => {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) return fail(slug, 'it must begin with a front matter between two "---" lines');
  const fields = new Map<string, string>();
  for (const line of match[1]!.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const pair = /^([a-z]+):\s*(.*)$/.exec(line);
    if (!pair) return fail(slug, `front matter line "${line}" is not "key: value"`);
    fields.set(pair[1]!, pair[2]!.trim().replace(/^(['"])(.*)\1$/, '$2'));
  }
  const known = ['title', 'description', 'order', 'group', 'related'];
  for (const key of fields.keys()) {
    if (!known.includes(key)) fail(slug, `unknown front matter field "${key}"`);
  }
  const required = (key: string) => fields.get(key) || fail(slug, `front matter needs "${key}"`);
  const order = Number(required('order'));
  if (!Number.isFinite(order)) fail(slug, '"order" must be a number');
  const related = (fields.get('related') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    meta: {
      slug,
      title: required('title'),
      description: required('description'),
      order,
      group: required('group'),
      related,
    },
    body: source.slice(match[0].length),
  };
};

/** The words of inline Markdown, without its marks. */
const inlineText = (tokens: Token[] | undefined): string =>
  (tokens ?? [])
    .map((token) => {
      if ('tokens' in token && token.tokens && token.tokens.length > 0) {
        return inlineText(token.tokens);
      }
      if (token.type === 'br') return ' ';
      if (token.type === 'html') return '';
      return 'text' in token && typeof token.text === 'string' ? decodeEntities(token.text) : '';
    })
    .join('');

/** The words of a block (paragraph, list, table, code), one space between its pieces. */
const blockText = (token: Token): string => {
  switch (token.type) {
    case 'paragraph':
    case 'heading':
    case 'text':
      return inlineText(token.tokens ?? []) || (token as Tokens.Text).text;
    case 'list':
      return (token as Tokens.List).items
        .map((item) => item.tokens.map(blockText).join(' '))
        .join(' ');
    case 'blockquote':
      return (token as Tokens.Blockquote).tokens.map(blockText).join(' ');
    case 'table': {
      const table = token as Tokens.Table;
      return [table.header, ...table.rows]
        .map((row) => row.map((cell) => inlineText(cell.tokens)).join(' '))
        .join(' ');
    }
    case 'code':
      return (token as Tokens.Code).text;
    default:
      return '';
  }
};

const collectLinks = (tokens: Token[], into: string[]) => {
  for (const token of tokens) {
    if (token.type === 'link') into.push((token as Tokens.Link).href);
    if ('tokens' in token && token.tokens) collectLinks(token.tokens, into);
    if (token.type === 'list') {
      for (const item of (token as Tokens.List).items) collectLinks(item.tokens, into);
    }
    if (token.type === 'table') {
      const table = token as Tokens.Table;
      for (const row of [table.header, ...table.rows]) {
        for (const cell of row) collectLinks(cell.tokens, into);
      }
    }
  }
};

type HeadingToken = Tokens.Heading & { anchor?: string };

/** Our HTML: anchored headings, links that say when they open a new tab, tables that scroll. */
const helpRenderer: RendererObject = {
  heading(token) {
    const text = this.parser.parseInline(token.tokens);
    const anchor = (token as HeadingToken).anchor;
    const id = anchor ? ` id="${anchor}" tabindex="-1"` : '';
    return `<h${token.depth}${id}>${text}</h${token.depth}>\n`;
  },
  link({ href, title, tokens }) {
    const text = this.parser.parseInline(tokens);
    const titleAttribute = title ? ` title="${escapeHtml(title)}"` : '';
    if (/^https?:\/\//.test(href)) {
      return `<a href="${escapeHtml(href)}"${titleAttribute} target="_blank" rel="noopener noreferrer">${text}<span class="sr-only"> (opens in a new tab)</span></a>`;
    }
    return `<a href="${escapeHtml(href)}"${titleAttribute}>${text}</a>`;
  },
  table(token) {
    const label = token.header.map((cell) => inlineText(cell.tokens)).join(', ');
    const table = Renderer.prototype.table.call(this, token);
    // A wide table scrolls sideways on a phone; the region lets a keyboard scroll it too.
    return `<div class="help-table" role="region" tabindex="0" aria-label="Table: ${escapeHtml(label)}">${table}</div>\n`;
  },
  code(token) {
    return Renderer.prototype.code.call(this, token).replace('<pre>', '<pre tabindex="0">');
  },
  html({ text }) {
    return escapeHtml(text);
  },
};

const isDirective = (token: Token): HelpDirective | null => {
  if (token.type !== 'html') return null;
  const name = directivePattern.exec(token.raw.trim())?.[1];
  return name ? (name as HelpDirective) : null;
};

/**
 * Compiles one article: `slug` is its file name, `source` the file's text, `blocks` what the build
 * writes in place of `<!-- help:{name} -->` (the page draws the `helpDirectives` itself).
 */
export const compileArticle = (
  slug: string,
  source: string,
  blocks: Record<string, StaticBlock> = {},
): CompiledArticle => {
  if (!slugPattern.test(slug)) fail(slug, 'its file name must be lower-case words joined by "-"');
  const { meta, body } = parseFrontMatter(slug, source);
  const marked = new Marked({ gfm: true }, { renderer: helpRenderer });
  const tokens: TokensList = marked.lexer(body);

  const headings: HelpHeading[] = [];
  const sections: HelpSearchSection[] = [];
  let section: HelpSearchSection = { id: null, heading: meta.title, text: '', directives: [] };
  const used = new Set<string>();
  const parts: HelpArticlePart[] = [];
  let pending: Token[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const html = marked.parser(Object.assign(pending, { links: tokens.links })).trim();
    if (html) parts.push({ html });
    pending = [];
  };

  for (const token of tokens) {
    const directive = isDirective(token);
    const block = directive && Object.hasOwn(blocks, directive) ? blocks[directive] : undefined;
    if (block) {
      flush();
      parts.push({ html: block.html });
      section.text = section.text ? `${section.text} ${block.text}` : block.text;
      continue;
    }
    if (directive) {
      if (!(helpDirectives as readonly string[]).includes(directive)) {
        fail(slug, `unknown block "<!-- help:${directive} -->"`);
      }
      flush();
      parts.push({ directive });
      section.directives.push(directive);
      continue;
    }
    if (token.type === 'html') {
      fail(slug, `raw HTML is not allowed (write Markdown): ${token.raw.trim().slice(0, 60)}`);
    }
    if (token.type === 'heading') {
      const heading = token as HeadingToken;
      if (heading.depth === 1) fail(slug, 'the title comes from the front matter; use ## and ###');
      const text = inlineText(heading.tokens).trim();
      let id = slugify(text) || 'section';
      for (let n = 2; used.has(id); n += 1) id = `${slugify(text)}-${n}`;
      used.add(id);
      heading.anchor = id;
      if (heading.depth <= 3) headings.push({ id, text, level: heading.depth as 2 | 3 });
      sections.push(section);
      section = { id, heading: text, text: '', directives: [] };
    } else {
      const text = blockText(token).replace(/\s+/g, ' ').trim();
      if (text) section.text = section.text ? `${section.text} ${text}` : text;
    }
    pending.push(token);
  }
  flush();
  sections.push(section);

  const links: string[] = [];
  collectLinks(tokens, links);
  return {
    article: { ...meta, headings, parts },
    search: {
      slug,
      path: `/help/${slug}`,
      title: meta.title,
      description: meta.description,
      order: meta.order,
      sections: sections.filter((s) => s.text || s.directives.length > 0 || s.id !== null),
    },
    links,
  };
};

export type CompiledFaq = { items: HelpFaqItem[]; search: HelpSearchDocument; links: string[] };

/**
 * The FAQ of /help: each `## Question?` and the Markdown under it, its answer. The questions are
 * searched like an article whose sections open the answer on /help.
 */
export const compileFaq = (source: string): CompiledFaq => {
  const marked = new Marked({ gfm: true }, { renderer: helpRenderer });
  const tokens: TokensList = marked.lexer(source);
  const items: (HelpFaqItem & { tokens: Token[] })[] = [];
  const sections: HelpSearchSection[] = [];
  for (const token of tokens) {
    if (token.type === 'html') fail('faq', 'raw HTML is not allowed (write Markdown)');
    if (token.type === 'heading') {
      const heading = token as Tokens.Heading;
      if (heading.depth !== 2) fail('faq', 'each question is a ## heading, and nothing else is');
      const question = inlineText(heading.tokens).trim();
      const id = `faq-${slugify(question)}`;
      if (items.some((item) => item.id === id)) fail('faq', `"${question}" is asked twice`);
      items.push({ id, question, html: '', tokens: [] });
      sections.push({ id, heading: question, text: '', directives: [] });
      continue;
    }
    const item = items.at(-1);
    if (!item) {
      if (token.type === 'space') continue;
      fail('faq', 'it must begin with a ## question');
    }
    item!.tokens.push(token);
    const text = blockText(token).replace(/\s+/g, ' ').trim();
    const section = sections.at(-1)!;
    if (text) section.text = section.text ? `${section.text} ${text}` : text;
  }
  const links: string[] = [];
  collectLinks(tokens, links);
  return {
    items: items.map(({ tokens: answer, ...item }) => ({
      ...item,
      html: marked.parser(Object.assign(answer, { links: tokens.links })).trim(),
    })),
    search: {
      slug: 'faq',
      path: '/help',
      title: 'Frequently asked questions',
      description: 'Short answers to the questions people ask most.',
      order: Number.MAX_SAFE_INTEGER,
      sections,
    },
    links,
  };
};

/**
 * What is wrong between the articles: a `related` slug or a link to `/help/{slug}#{anchor}` that
 * names no article or no heading of it. Empty when all is well.
 */
export const checkArticleLinks = (
  compiled: CompiledArticle[],
  others: { name: string; links: string[] }[] = [],
): string[] => {
  const anchors = new Map(
    compiled.map(({ article }) => [article.slug, new Set(article.headings.map((h) => h.id))]),
  );
  const problems: string[] = [];
  const sources = [
    ...compiled.map(({ article, links }) => ({
      name: article.slug,
      links,
      related: article.related,
    })),
    ...others.map((other) => ({ ...other, related: [] as string[] })),
  ];
  for (const { name, links, related } of sources) {
    for (const slug of related) {
      if (!anchors.has(slug)) problems.push(`${name}: related article "${slug}" is unknown`);
    }
    for (const href of links) {
      const help = /^\/help\/([^#?]+)(?:#(.+))?$/.exec(href);
      if (!help) continue;
      const target = anchors.get(help[1]!);
      if (!target) problems.push(`${name}: link ${href} names no article`);
      else if (help[2] && !target.has(help[2])) {
        problems.push(`${name}: link ${href} names no heading of "${help[1]}"`);
      }
    }
  }
  return problems;
};
