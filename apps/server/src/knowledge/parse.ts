import { Readability, isProbablyReaderable } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import mammoth from 'mammoth';
import TurndownService from 'turndown';
import { extractText as extractPdfText, getDocumentProxy } from 'unpdf';
import { knowledgeLimits, type KnowledgeFileType } from '@chorus/shared/api/knowledge';
import { messageFor } from '@chorus/shared/error-catalogue';
import {
  chunkCsv,
  chunkJson,
  chunkMarkdown,
  chunkPages,
  chunkPlainText,
  cleanText,
  defaultChunkOptions,
  normalizeWhitespace,
  toDrafts,
  TokenSplitter,
  type ChunkDraft,
} from './chunk.ts';
import { loadTokenCounter } from './tokens.ts';

export type { ChunkDraft } from './chunk.ts';

/** Why a document could not be parsed: the caller picks its error code (and HTTP status) by it. */
export type DocumentParseReason =
  'unreadable' | 'password' | 'invalid_json' | 'empty' | 'too_long' | 'too_many_pages';

/** A file that cannot be made into text; the message tells a person what to do about it. */
export class DocumentParseError extends Error {
  override name = 'DocumentParseError';
  constructor(
    message: string,
    readonly reason: DocumentParseReason,
  ) {
    super(message);
  }
}

const fileLabels: Record<KnowledgeFileType, string> = {
  'text/plain': 'text file',
  'text/markdown': 'Markdown file',
  'application/pdf': 'PDF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document',
  'text/html': 'HTML page',
  'text/csv': 'CSV file',
  'application/json': 'JSON file',
};

/** What a person reads when a document cannot be parsed. */
export const parseMessages = {
  pdfUnreadable:
    'The PDF could not be read: it is damaged or encrypted. Save it again as a PDF and upload it.',
  pdfPassword:
    'The PDF is protected by a password. Save a copy without the password and upload that.',
  pdfNoText:
    'The PDF has no text to search (a scanned PDF needs OCR first). Run OCR on it, or export it again with its text, and upload it.',
  docxNotZip:
    'The Word document could not be read: it is not a .docx file. Open it in Word, save it as .docx and upload it again.',
  docxOldFormat:
    'This is an old Word .doc file, not a .docx. Open it in Word, save it as .docx and upload it again.',
  docxUnreadable:
    'The Word document could not be read: it is damaged, or it is a zip file but not a .docx. Open it in Word, save it again as .docx and upload it.',
  jsonInvalid: (problem: string, line: number, column: number) =>
    `The JSON file is not valid: ${problem} at line ${line}, column ${column}. Fix it there and upload it again.`,
  empty: (type: KnowledgeFileType) =>
    `The ${fileLabels[type]} has no text to search. Upload a file with some text in it.`,
  tooLong: `The document has more than ${knowledgeLimits.maxDocumentChars.toLocaleString('en')} characters of text. Split it into smaller files and upload them.`,
  tooManyPages: (pages: number) =>
    messageFor('knowledge:too_many_pages', { pages, max: knowledgeLimits.maxPages }),
};

export type ParsedDocument = {
  /** PDF pages; null for other types. */
  pages: number | null;
  chunks: ChunkDraft[];
  /** Characters of text the document yielded. */
  chars: number;
};

// ---------------------------------------------------------------------------------------------
// Text

const bomDecoders: [number[], string][] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xff, 0xfe], 'utf-16le'],
  [[0xfe, 0xff], 'utf-16be'],
];

/** UTF-8 (or the UTF-16 a byte order mark names); bytes that are not valid become U+FFFD. */
const decode = (bytes: Uint8Array, fallback = 'utf-8'): string => {
  const bom = bomDecoders.find(([marks]) => marks.every((b, i) => bytes[i] === b));
  let encoding = bom?.[1] ?? fallback;
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    encoding = 'utf-8';
    return new TextDecoder(encoding).decode(bytes);
  }
};

/** The charset an HTML page declares in its first bytes, for the pages not written in UTF-8. */
const declaredCharset = (bytes: Uint8Array): string => {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const charset = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (!charset) return 'utf-8';
  try {
    new TextDecoder(charset);
    return charset;
  } catch {
    return 'utf-8';
  }
};

const readText = (bytes: Uint8Array, fallback?: string) =>
  normalizeWhitespace(cleanText(decode(bytes, fallback)));

// ---------------------------------------------------------------------------------------------
// PDF

const openPdf = async (bytes: Uint8Array) => {
  try {
    // A copy: PDF.js takes the buffer it is given. Verbosity 0: errors only, no warnings logged.
    return await getDocumentProxy(bytes.slice(), { verbosity: 0 });
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException')
      throw new DocumentParseError(parseMessages.pdfPassword, 'password');
    throw new DocumentParseError(parseMessages.pdfUnreadable, 'unreadable');
  }
};

export const countPdfPages = async (bytes: Uint8Array): Promise<number> => {
  const pdf = await openPdf(bytes);
  try {
    return pdf.numPages;
  } finally {
    await pdf.loadingTask.destroy();
  }
};

/** Each page's text, whitespace tidied (PDF.js spaces words by their positions). */
const readPdfPages = async (bytes: Uint8Array, maxPages: number | null) => {
  const pdf = await openPdf(bytes);
  try {
    if (maxPages !== null && pdf.numPages > maxPages)
      throw new DocumentParseError(parseMessages.tooManyPages(pdf.numPages), 'too_many_pages');
    const { text } = await extractPdfText(pdf, { mergePages: false });
    return text.map((page) => normalizeWhitespace(cleanText(page).replace(/[^\S\n]+/g, ' ')));
  } catch (error) {
    if (error instanceof DocumentParseError) throw error;
    throw new DocumentParseError(parseMessages.pdfUnreadable, 'unreadable');
  } finally {
    await pdf.loadingTask.destroy();
  }
};

// ---------------------------------------------------------------------------------------------
// HTML and docx, by way of Markdown

let turndownService: TurndownService | undefined;

type ElementLike = {
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): { length: number };
};

const cellText = (content: string) => content.replace(/\s*\n\s*/g, ' ').trim();

const turndown = (): TurndownService => {
  if (turndownService) return turndownService;
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
    hr: '---',
  });
  service.remove([
    'script',
    'style',
    'noscript',
    'template',
    'iframe',
    'object',
    'embed',
    'svg',
    'canvas',
    'head',
    'title',
    'meta',
    'link',
  ]);
  // Images are searched by their alt text; their addresses (data: URIs from docx) are noise.
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => (node as ElementLike).getAttribute('alt')?.trim() ?? '',
  });
  // Links to other pages keep their address; anchors within the page and scripts keep the words.
  service.addRule('link', {
    filter: 'a',
    replacement: (content, node) => {
      const href = (node as ElementLike).getAttribute('href')?.trim() ?? '';
      return /^(https?:|mailto:)/i.test(href) && content.trim() ? `[${content}](${href})` : content;
    },
  });
  // Tables as rows of cells on one line each, not a paragraph per cell.
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content) => ` ${cellText(content)} |`,
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const headings = (node as ElementLike).querySelectorAll('th').length;
      const rule = headings > 0 ? `\n|${' --- |'.repeat(headings)}` : '';
      return `\n|${content}${rule}`;
    },
  });
  service.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  service.addRule('table', { filter: 'table', replacement: (content) => `\n\n${content}\n\n` });
  // Escape only what would change the document's structure here: text that reads as a heading.
  service.escape = (text: string) =>
    text.replace(/^(#{1,6})(?=[ \t]|$)/gm, '\\$1').replace(/^(={2,}|-{2,})[ \t]*$/gm, '\\$1');
  turndownService = service;
  return service;
};

type HtmlDocument = ReturnType<typeof parseHTML>['document'];

const loadHtml = (html: string): HtmlDocument =>
  parseHTML(
    /<html[\s>]/i.test(html)
      ? html
      : `<!doctype html><html><head></head><body>${html}</body></html>`,
  ).document;

/** Page furniture and everything that is not text to read. */
const chrome =
  'script, style, noscript, template, nav, footer, header, head, title, iframe, object, embed, svg, canvas, [hidden], [aria-hidden="true"]';

/**
 * HTML as Markdown with ATX headings. A web page that Readability finds an article in gives the
 * article (and its title); any other page gives its body without scripts, styles and navigation.
 */
export const htmlToMarkdown = (html: string, { findArticle }: { findArticle: boolean }): string => {
  let content: string | undefined;
  let title = '';
  if (findArticle) {
    const document = loadHtml(html);
    if (isProbablyReaderable(document)) {
      const article = new Readability(document).parse();
      if (article?.content && article.textContent?.trim()) {
        content = article.content;
        title = normalizeWhitespace(article.title ?? '').replace(/\s+/g, ' ');
      }
    }
  }
  if (content === undefined) {
    const document = loadHtml(html);
    for (const element of [...document.querySelectorAll(chrome)]) element.remove();
    content = document.body?.innerHTML ?? '';
  }
  const markdown = cleanText(turndown().turndown(content ?? ''));
  // Readability takes a heading that repeats the title out of the article; it goes back on top.
  const hasTitle = markdown
    .split('\n')
    .some((line) => /^#{1,6}\s/.test(line) && line.replace(/^#+\s*/, '').trim() === title);
  return normalizeWhitespace(title && !hasTitle ? `# ${title}\n\n${markdown}` : markdown);
};

const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b && (b[2] === 3 || b[2] === 5);
const isOleDoc = (b: Uint8Array) =>
  b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0;

const docxToMarkdown = async (bytes: Uint8Array): Promise<string> => {
  if (isOleDoc(bytes)) throw new DocumentParseError(parseMessages.docxOldFormat, 'unreadable');
  if (!isZip(bytes)) throw new DocumentParseError(parseMessages.docxNotZip, 'unreadable');
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
        externalFileAccess: false,
      },
    );
    html = result.value;
  } catch {
    throw new DocumentParseError(parseMessages.docxUnreadable, 'unreadable');
  }
  return htmlToMarkdown(html, { findArticle: false });
};

// ---------------------------------------------------------------------------------------------
// JSON

class JsonProblem extends Error {
  constructor(
    readonly at: number,
    readonly problem: string,
  ) {
    super(problem);
  }
}

/** Where a text that JSON.parse refused goes wrong first, and how, in words. */
export const locateJsonError = (text: string): { at: number; problem: string } => {
  let i = 0;
  const fail = (problem: string): never => {
    throw new JsonProblem(i, problem);
  };
  const describe = (c: string | undefined) =>
    c === undefined ? 'the end of the file' : c === '"' ? 'a double quote' : `"${c}"`;
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = () => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('a string is not closed with a double quote');
      else if (c === '"') return void i++;
      else if (c === '\\') {
        const next = text[i + 1];
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail('a backslash in a string starts no valid escape');
      } else if (c < ' ')
        fail('a string holds a line break or control character (write it as \\n)');
      else i++;
    }
  };
  const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (): void => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      for (;;) {
        space();
        if (text[i] !== '"')
          fail(`expected a property name in double quotes, found ${describe(text[i])}`);
        string();
        space();
        if (text[i] !== ':')
          fail(`expected ":" after the property name, found ${describe(text[i])}`);
        i++;
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail(`expected "," or "}" after a value, found ${describe(text[i])}`);
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail(`expected "," or "]" after an item, found ${describe(text[i])}`);
      }
    }
    if (c === '"') return string();
    number.lastIndex = i;
    if (c !== undefined && /[-\d]/.test(c) && number.test(text)) return void (i = number.lastIndex);
    for (const literal of ['true', 'false', 'null'])
      if (text.startsWith(literal, i)) return void (i += literal.length);
    fail(`expected a value, found ${describe(c)}`);
  };
  try {
    value();
    space();
    if (i < text.length) fail(`unexpected ${describe(text[i])} after the end of the JSON value`);
  } catch (error) {
    if (error instanceof JsonProblem) return { at: error.at, problem: error.problem };
    return { at: 0, problem: 'it is nested too deeply to read' };
  }
  return { at: 0, problem: 'it could not be read' };
};

const lineAndColumn = (text: string, at: number) => {
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return { line, column: at - before.lastIndexOf('\n') };
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const parseJson = (text: string): Json => {
  try {
    return JSON.parse(text) as Json;
  } catch {
    const { at, problem } = locateJsonError(text);
    const { line, column } = lineAndColumn(text, at);
    throw new DocumentParseError(parseMessages.jsonInvalid(problem, line, column), 'invalid_json');
  }
};

// ---------------------------------------------------------------------------------------------
// Documents

type ReadDocument =
  | { kind: 'pages'; pages: string[] }
  | { kind: 'markdown' | 'plain' | 'csv'; text: string }
  | { kind: 'json'; value: Json; text: string };

const read = async (
  bytes: Uint8Array,
  type: KnowledgeFileType,
  { maxPages, strictJson }: { maxPages: number | null; strictJson: boolean },
): Promise<ReadDocument> => {
  switch (type) {
    case 'application/pdf':
      return { kind: 'pages', pages: await readPdfPages(bytes, maxPages) };
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      return { kind: 'markdown', text: await docxToMarkdown(bytes) };
    case 'text/html':
      return {
        kind: 'markdown',
        text: htmlToMarkdown(decode(bytes, declaredCharset(bytes)), { findArticle: true }),
      };
    case 'text/markdown':
      return { kind: 'markdown', text: readText(bytes) };
    case 'text/csv':
      return { kind: 'csv', text: readText(bytes) };
    case 'application/json': {
      // Not normalised: a mistake's line and column are the file's own.
      const source = cleanText(decode(bytes));
      if (!source.trim()) return { kind: 'plain', text: '' };
      if (!strictJson) {
        try {
          const value = JSON.parse(source) as Json;
          return { kind: 'json', value, text: cleanText(JSON.stringify(value, null, 2)) };
        } catch {
          return { kind: 'plain', text: normalizeWhitespace(source) };
        }
      }
      const value = parseJson(source);
      return { kind: 'json', value, text: cleanText(JSON.stringify(value, null, 2)) };
    }
    case 'text/plain':
      return { kind: 'plain', text: readText(bytes) };
  }
};

/** `{}`, `[]`, `null` and `""` hold nothing to search. */
const isEmptyJson = (value: Json) =>
  value === null || value === '' || (typeof value === 'object' && Object.keys(value).length === 0);

/**
 * A document as chunks to embed and index, in order, with their positions. Throws
 * DocumentParseError for a malformed file, one with no text, or one past
 * knowledgeLimits.maxDocumentChars or maxPages.
 */
export const parseDocument = async (
  bytes: Uint8Array,
  type: KnowledgeFileType,
  opts: { chunkTokens?: number; overlapTokens?: number } = {},
): Promise<ParsedDocument> => {
  const count = await loadTokenCounter();
  const splitter = new TokenSplitter(count, {
    chunkTokens: opts.chunkTokens ?? defaultChunkOptions.chunkTokens,
    overlapTokens: opts.overlapTokens ?? defaultChunkOptions.overlapTokens,
  });
  const doc = await read(bytes, type, { maxPages: knowledgeLimits.maxPages, strictJson: true });
  const chars =
    doc.kind === 'pages' ? doc.pages.reduce((n, p) => n + p.length, 0) : doc.text.length;
  if (chars > knowledgeLimits.maxDocumentChars)
    throw new DocumentParseError(parseMessages.tooLong, 'too_long');
  const pieces =
    doc.kind === 'pages'
      ? await chunkPages(doc.pages, splitter)
      : doc.kind === 'markdown'
        ? await chunkMarkdown(doc.text, splitter)
        : doc.kind === 'csv'
          ? await chunkCsv(doc.text, splitter)
          : doc.kind === 'json'
            ? isEmptyJson(doc.value)
              ? []
              : await chunkJson(doc.value, splitter)
            : await chunkPlainText(doc.text, splitter);
  if (pieces.length === 0)
    throw new DocumentParseError(
      type === 'application/pdf' ? parseMessages.pdfNoText : parseMessages.empty(type),
      'empty',
    );
  return {
    pages: doc.kind === 'pages' ? doc.pages.length : null,
    chunks: toDrafts(pieces, count),
    chars,
  };
};

export const truncatedMarker = '[… truncated]';

/** At most `maxChars` characters, cut at a line or word end when one is near, marked at the cut. */
const cap = (text: string, maxChars: number): string => {
  if (text.length <= maxChars) return text;
  const room = Math.max(0, maxChars - truncatedMarker.length - 1);
  let cut = room;
  const space = Math.max(text.lastIndexOf('\n', room), text.lastIndexOf(' ', room));
  if (space > room * 0.9) cut = space;
  // Not between the two halves of a surrogate pair.
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${text.slice(0, cut).trimEnd()}\n${truncatedMarker}`;
};

/**
 * The whole document as readable text for a chat message's context: Markdown for md, html and
 * docx; each PDF page under a "--- Page N ---" line; CSV as it is; JSON pretty-printed (or as it
 * is, when it is not valid JSON, so a person can ask about the mistake). Capped at `maxChars`
 * (default 100,000) with "[… truncated]" at the cut. Throws DocumentParseError for a file that
 * cannot be read or has no text.
 */
export const extractText = async (
  bytes: Uint8Array,
  type: KnowledgeFileType,
  opts: { maxChars?: number } = {},
): Promise<string> => {
  const maxChars = opts.maxChars ?? 100_000;
  const doc = await read(bytes, type, { maxPages: null, strictJson: false });
  if (doc.kind === 'pages') {
    if (doc.pages.every((page) => page === ''))
      throw new DocumentParseError(parseMessages.pdfNoText, 'empty');
    return cap(
      doc.pages.map((page, i) => `--- Page ${i + 1} ---\n${page}`.trim()).join('\n\n'),
      maxChars,
    );
  }
  if (!doc.text.trim() || (doc.kind === 'json' && isEmptyJson(doc.value)))
    throw new DocumentParseError(parseMessages.empty(type), 'empty');
  return cap(doc.text, maxChars);
};
