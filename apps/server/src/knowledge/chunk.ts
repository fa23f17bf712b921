import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import type { TokenCounter } from './tokens.ts';

/** One chunk of a document, before it is stored and embedded. Its position is the shared contract's `chunkPositionSchema`. */
export type ChunkDraft = {
  /** Order in the document, from 0. */
  index: number;
  /** What is embedded and full-text indexed. */
  text: string;
  /** 1-based PDF page; null otherwise. */
  page: number | null;
  /** Headings above it, outermost first (md, html, docx); [] otherwise. */
  heading_path: string[];
  /** CSV data rows (1-based, header excluded); null otherwise. */
  rows: { from: number; to: number } | null;
  token_count: number;
};

export type ChunkOptions = { chunkTokens: number; overlapTokens: number };
export const defaultChunkOptions: ChunkOptions = { chunkTokens: 400, overlapTokens: 60 };

type Piece = Omit<ChunkDraft, 'index' | 'token_count'>;
type Rows = { from: number; to: number };

// C0 controls but \t and \n (\r is turned into \n first), DEL, and C1 controls. PostgreSQL text
// cannot hold NUL; the rest is noise to search and to a model.
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
const loneSurrogates = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes what a database or an embedding cannot take: NUL and other controls, lone surrogates. */
export const cleanText = (text: string): string =>
  text.replace(/\r\n?/g, '\n').replace(controlCharacters, '').replace(loneSurrogates, '\uFFFD');

/** Trailing spaces off every line, runs of blank lines down to one, no blank edges. */
export const normalizeWhitespace = (text: string): string =>
  text
    .replace(/[^\S\n]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '');

const plainSeparators = ['\n\n', '\n', ' ', ''];
const markdownSeparators = RecursiveCharacterTextSplitter.getSeparatorsForLanguage('markdown');

/**
 * Splits text into pieces of at most `chunkTokens` tokens, with `overlapTokens` of the previous
 * piece repeated where the splitter merges small parts, by LangChain's recursive splitter.
 */
export class TokenSplitter {
  private readonly splitters = new Map<string, RecursiveCharacterTextSplitter>();

  constructor(
    readonly count: TokenCounter,
    readonly options: ChunkOptions,
  ) {
    const { chunkTokens, overlapTokens } = options;
    if (!Number.isInteger(chunkTokens) || chunkTokens < 8)
      throw new RangeError('chunkTokens must be a whole number of at least 8');
    if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens >= chunkTokens)
      throw new RangeError('overlapTokens must be a whole number from 0 to below chunkTokens');
  }

  private splitter(size: number, overlap: number, separators: string[]) {
    const key = `${size}:${overlap}:${separators === markdownSeparators ? 'md' : 'plain'}`;
    let splitter = this.splitters.get(key);
    if (!splitter) {
      splitter = new RecursiveCharacterTextSplitter({
        chunkSize: size,
        chunkOverlap: overlap,
        separators,
        lengthFunction: this.count,
      });
      this.splitters.set(key, splitter);
    }
    return splitter;
  }

  /** Normalised pieces, none empty, none over `size` tokens (default `chunkTokens`). */
  async split(
    text: string,
    opts: { markdown?: boolean; size?: number; overlap?: number } = {},
  ): Promise<string[]> {
    const size = opts.size ?? this.options.chunkTokens;
    const overlap = Math.min(opts.overlap ?? this.options.overlapTokens, Math.floor(size / 2));
    const whole = normalizeWhitespace(text);
    if (!whole) return [];
    if (this.count(whole) <= size) return [whole];
    const separators = opts.markdown ? markdownSeparators : plainSeparators;
    const parts = await this.splitter(size, overlap, separators).splitText(whole);
    const pieces: string[] = [];
    for (const part of parts) {
      // Cutting between characters can halve a surrogate pair.
      const piece = normalizeWhitespace(cleanText(part));
      if (!piece) continue;
      // Token counts do not quite add up when parts are joined; a rare piece over the size is cut
      // again, smaller, without overlap.
      if (this.count(piece) > size && size > 8)
        pieces.push(...(await this.split(piece, { size: Math.floor(size * 0.8), overlap: 0 })));
      else pieces.push(piece);
    }
    return pieces;
  }
}

/** Numbers the pieces and counts their tokens. */
export const toDrafts = (pieces: Piece[], count: TokenCounter): ChunkDraft[] =>
  pieces.map((piece, index) => ({ index, ...piece, token_count: count(piece.text) }));

/** Plain text: the whole document split by paragraphs, then lines, then words. */
export const chunkPlainText = async (text: string, splitter: TokenSplitter): Promise<Piece[]> =>
  (await splitter.split(text)).map((t) => ({ text: t, page: null, heading_path: [], rows: null }));

/** A PDF's pages, each split alone: a chunk never spans two pages. Empty pages give none. */
export const chunkPages = async (pages: string[], splitter: TokenSplitter): Promise<Piece[]> => {
  const pieces: Piece[] = [];
  for (const [i, page] of pages.entries())
    for (const text of await splitter.split(page))
      pieces.push({ text, page: i + 1, heading_path: [], rows: null });
  return pieces;
};

// ---------------------------------------------------------------------------------------------
// Markdown

export type MarkdownSection = {
  headingPath: string[];
  /** The heading's own line (two for a setext heading); '' before the first heading. */
  heading: string;
  body: string;
};

const atxHeading = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const fenceOpening = /^ {0,3}(`{3,}|~{3,})/;
const setextUnderline = /^ {0,3}(={2,}|-{2,})[ \t]*$/;
/** Lines that cannot be a setext heading's text: list items, quotes, tables, fences, rules. */
const notSetextText = /^\s*([-*+>|]|\d+[.)]\s|`{3}|~{3})/;

/** A heading's words without Markdown: links and images to their text, no emphasis or code marks. */
const headingText = (raw: string): string =>
  raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*`]+/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Markdown cut at its headings (ATX, and one-line setext ones), outside fenced code. Each section
 * holds its heading line and carries the path of headings above and including it.
 */
export const markdownSections = (markdown: string): MarkdownSection[] => {
  const lines = markdown.split('\n');
  const sections: MarkdownSection[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: string[] = [];
  let currentPath: string[] = [];
  let fence: string | null = null;

  let heading = '';
  const close = () => {
    const body = current.join('\n');
    if (heading || body.trim()) sections.push({ headingPath: currentPath, heading, body });
  };
  const open = (level: number, title: string, line: string) => {
    close();
    while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
    stack.push({ level, text: title });
    currentPath = stack.map((h) => h.text).filter((t) => t !== '');
    heading = line;
    current = [];
  };

  for (const [i, line] of lines.entries()) {
    if (fence !== null) {
      current.push(line);
      const closing = line.trim();
      if (closing.startsWith(fence) && /^[`~]+$/.test(closing)) fence = null;
      continue;
    }
    const opening = fenceOpening.exec(line);
    if (opening) {
      fence = opening[1]!;
      current.push(line);
      continue;
    }
    const atx = atxHeading.exec(line);
    if (atx) {
      open(atx[1]!.length, headingText(atx[2] ?? ''), line);
      continue;
    }
    const underline = setextUnderline.exec(line);
    const previous = lines[i - 1];
    const beforePrevious = lines[i - 2];
    if (
      underline &&
      previous !== undefined &&
      previous.trim() !== '' &&
      current.length > 0 &&
      current[current.length - 1] === previous &&
      (beforePrevious === undefined || beforePrevious.trim() === '') &&
      !notSetextText.test(previous) &&
      !atxHeading.test(previous)
    ) {
      current.pop();
      open(underline[1]!.startsWith('=') ? 1 : 2, headingText(previous), `${previous}\n${line}`);
      continue;
    }
    current.push(line);
  }
  close();
  return sections;
};

/**
 * Markdown by its structure: a section per heading, carrying its heading path, split by
 * paragraphs when it is longer than a chunk; the heading line stays with the first part. A heading
 * with nothing under it but other headings gives no chunk of its own (it is in their paths),
 * unless the document is nothing but headings.
 */
export const chunkMarkdown = async (
  markdown: string,
  splitter: TokenSplitter,
): Promise<Piece[]> => {
  const sections = markdownSections(markdown);
  const withBody = sections.some((s) => s.body.trim() !== '');
  const pieces: Piece[] = [];
  const { count } = splitter;
  const limit = splitter.options.chunkTokens;
  for (const { headingPath, heading, body } of sections) {
    if (withBody && !body.trim()) continue;
    const whole = heading ? `${heading}\n${body}` : body;
    const room = limit - count(`${heading}\n\n`);
    let texts: string[];
    if (!heading || count(normalizeWhitespace(whole)) <= limit || room < limit / 2) {
      texts = await splitter.split(whole, { markdown: true });
    } else {
      texts = await splitter.split(body, { markdown: true, size: room });
      texts[0] = `${heading}\n\n${texts[0] ?? ''}`.trim();
    }
    for (const text of texts)
      pieces.push({ text, page: null, heading_path: headingPath, rows: null });
  }
  return pieces;
};

// ---------------------------------------------------------------------------------------------
// CSV

const candidateDelimiters = [',', ';', '\t', '|'];

/** The delimiter used most in the first line, outside quotes; a comma when none is. */
export const detectDelimiter = (text: string): string => {
  const counts = new Map<string, number>();
  let quoted = false;
  for (let i = 0; i < text.length && i < 65_536; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '\n') break;
    else if (!quoted && candidateDelimiters.includes(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let best = ',';
  for (const d of candidateDelimiters) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
};

/**
 * The records of a CSV (RFC 4180) as they are written: a record ends at a newline outside a
 * quoted field, and a quoted field may hold delimiters, newlines and doubled quotes. A quote that
 * is never closed runs to the end. Records of only whitespace are left out.
 */
export const readCsvRecords = (text: string, delimiter = detectDelimiter(text)): string[] => {
  const records: string[] = [];
  let start = 0;
  let fieldStart = true;
  let i = 0;
  const end = (at: number) => {
    const record = text.slice(start, at);
    if (record.trim()) records.push(record);
    start = at + 1;
    fieldStart = true;
  };
  while (i < text.length) {
    const c = text[i];
    if (fieldStart && c === '"') {
      let j = i + 1;
      for (;;) {
        const close = text.indexOf('"', j);
        if (close === -1) {
          j = text.length;
          break;
        }
        if (text[close + 1] === '"') j = close + 2;
        else {
          j = close + 1;
          break;
        }
      }
      i = j;
      fieldStart = false;
    } else if (c === '\n') {
      end(i);
      i++;
    } else {
      fieldStart = c === delimiter;
      i++;
    }
  }
  end(text.length);
  return records;
};

/**
 * CSV by rows: every chunk starts with the header line, so it reads alone, and records which data
 * rows it holds. A row too long for a chunk is split, each part under the header.
 */
export const chunkCsv = async (text: string, splitter: TokenSplitter): Promise<Piece[]> => {
  const { count } = splitter;
  const limit = splitter.options.chunkTokens;
  const records = readCsvRecords(text);
  const first = records[0];
  if (first === undefined) return [];
  // A header of more than half a chunk is cut, or no room would be left for rows.
  const header =
    count(first) <= limit / 2
      ? first
      : ((await splitter.split(first, { size: Math.floor(limit / 2), overlap: 0 }))[0] ?? '');
  const data = records.slice(1);
  if (data.length === 0) {
    return (await splitter.split(first)).map((t) => ({
      text: t,
      page: null,
      heading_path: [],
      rows: null,
    }));
  }
  const headerTokens = count(`${header}\n`);
  const pieces: Piece[] = [];
  let group: string[] = [];
  let groupFrom = 1;
  let groupTokens = headerTokens;
  const push = (body: string, rows: Rows) => {
    const chunk = normalizeWhitespace(cleanText(`${header}\n${body}`));
    if (chunk) pieces.push({ text: chunk, page: null, heading_path: [], rows });
  };
  const flush = () => {
    // Counted row by row; the joined text is checked, and rows that do not fit wait for the next.
    while (group.length > 0) {
      let take = group.length;
      while (take > 1 && count(`${header}\n${group.slice(0, take).join('\n')}`) > limit) take--;
      push(group.slice(0, take).join('\n'), { from: groupFrom, to: groupFrom + take - 1 });
      groupFrom += take;
      group = group.slice(take);
    }
    groupTokens = headerTokens;
  };
  for (const [i, record] of data.entries()) {
    const row = i + 1;
    const tokens = count(`${record}\n`);
    if (headerTokens + tokens > limit) {
      flush();
      const parts = await splitter.split(record, { size: limit - headerTokens, overlap: 0 });
      for (const part of parts) push(part, { from: row, to: row });
      continue;
    }
    if (group.length > 0 && groupTokens + tokens > limit) flush();
    if (group.length === 0) groupFrom = row;
    group.push(record);
    groupTokens += tokens;
  }
  flush();
  return pieces;
};

// ---------------------------------------------------------------------------------------------
// JSON

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const identifier = /^[A-Za-z_$][\w$]*$/;
const keyPath = (path: string, key: string) =>
  identifier.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
const indent = (text: string) => text.replace(/\n/g, '\n  ');

/**
 * JSON pretty-printed, split by its structure: a value that fits is one chunk; an array or object
 * that does not is cut into runs of its items (each run pretty-printed as an array or object of
 * its own), and an item too big alone is split the same way, down to long strings split as text.
 * When the document takes more than one chunk, each starts with the path it comes from, as in
 * `$.users[3..7]`, so it reads alone.
 */
export const chunkJson = async (value: Json, splitter: TokenSplitter): Promise<Piece[]> => {
  const { count } = splitter;
  const limit = splitter.options.chunkTokens;
  const whole = JSON.stringify(value, null, 2);
  if (count(whole) <= limit) return chunkPlainText(whole, splitter);

  const texts: string[] = [];
  const emit = async (label: string, body: string) => {
    const text = `${label}\n${body}`;
    if (count(text) <= limit) return void texts.push(text);
    // An item's count is a little off once indented inside its run; cut the rare one over.
    const size = Math.max(8, limit - count(`${label}\n`));
    for (const part of await splitter.split(body, { size, overlap: 0 }))
      texts.push(`${label}\n${part}`);
  };

  const walk = async (node: Json, path: string): Promise<void> => {
    const labelTokens = count(`${path}[0..0]\n`) + 2;
    if (node !== null && typeof node === 'object') {
      const isArray = Array.isArray(node);
      const entries: [string, Json][] = isArray
        ? node.map((v, i) => [String(i), v])
        : Object.entries(node);
      const rendered = entries.map(([k, v]) => {
        const item = JSON.stringify(v, null, 2);
        return isArray ? item : `${JSON.stringify(k)}: ${item}`;
      });
      const wrap = (items: string[]) =>
        isArray
          ? `[\n  ${items.map(indent).join(',\n  ')}\n]`
          : `{\n  ${items.map(indent).join(',\n  ')}\n}`;
      let run: number[] = [];
      let runTokens = labelTokens + 2;
      const label = (from: number, to: number) => (isArray ? `${path}[${from}..${to}]` : path);
      const flush = async () => {
        while (run.length > 0) {
          // Counts of items do not quite add up; the joined text is checked before it is kept.
          let take = run.length;
          let text = wrap(run.slice(0, take).map((i) => rendered[i]!));
          while (take > 1 && count(`${label(run[0]!, run[take - 1]!)}\n${text}`) > limit) {
            take--;
            text = wrap(run.slice(0, take).map((i) => rendered[i]!));
          }
          await emit(label(run[0]!, run[take - 1]!), text);
          run = run.slice(take);
        }
        runTokens = labelTokens + 2;
      };
      for (const [i, [key, child]] of entries.entries()) {
        const tokens = count(rendered[i]!) + 2;
        if (labelTokens + 2 + tokens > limit) {
          await flush();
          await walk(child, isArray ? `${path}[${i}]` : keyPath(path, key));
          continue;
        }
        if (run.length > 0 && runTokens + tokens > limit) await flush();
        run.push(i);
        runTokens += tokens;
      }
      await flush();
      return;
    }
    const text = typeof node === 'string' ? node : JSON.stringify(node);
    const size = Math.max(8, limit - labelTokens);
    for (const part of await splitter.split(text, { size })) await emit(path, part);
  };

  await walk(value, '$');
  const pieces: Piece[] = [];
  for (const text of texts) {
    const chunk = normalizeWhitespace(cleanText(text));
    if (chunk) pieces.push({ text: chunk, page: null, heading_path: [], rows: null });
  }
  return pieces;
};
