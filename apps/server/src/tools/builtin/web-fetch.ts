import type { LookupFunction } from 'node:net';
import { tool } from 'ai';
import { z } from 'zod';
import type { AllowList } from '../../net/address-check.ts';
import { OutboundError } from '../../net/outbound-errors.ts';
import { safeFetch } from '../../net/safe-fetch.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';
import { toolFailure, type ToolFailure } from './tool-failure.ts';

/** How the server reaches user-supplied URLs: the admin's allow-list, and a lookup for tests. */
export type OutboundContext = { allow?: AllowList; lookup?: LookupFunction };

export const webFetchLimits = {
  /** Characters of Markdown or text handed to the model; the rest is cut with a marker. */
  characters: 20_000,
  timeoutMs: 10_000,
  maxBytes: 2 * 1024 * 1024,
  urlLength: 2_048,
} as const;

export type WebPage = {
  /** The address that answered, after redirects. */
  url: string;
  title: string;
  content_type: string;
  /** Markdown for an HTML page, the text itself for other text. */
  content: string;
  /** The page was longer than what is given here. */
  truncated: boolean;
};

const htmlTypes = new Set(['text/html', 'application/xhtml+xml']);

const textTypes = new Set([
  'application/json',
  'application/ld+json',
  'application/xml',
  'application/javascript',
  'application/x-ndjson',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/csv',
]);

const isTextType = (mime: string) =>
  mime.startsWith('text/') ||
  textTypes.has(mime) ||
  /^application\/[\w.+-]+\+(json|xml)$/.test(mime);

/** What the body is: its media type and charset, sniffed when the server did not say. */
const describeBody = (contentType: string | undefined, body: Uint8Array) => {
  const [mime = '', ...params] = (contentType ?? '').split(';').map((part) => part.trim());
  const charset = params
    .map((param) => /^charset\s*=\s*"?([^";]+)"?$/i.exec(param)?.[1])
    .find(Boolean);
  if (mime) return { mime: mime.toLowerCase(), charset };
  const head = Buffer.from(body.subarray(0, 1024)).toString('latin1');
  if (head.includes('\0')) return { mime: 'application/octet-stream', charset };
  return { mime: /^\s*<(!doctype html|html)/i.test(head) ? 'text/html' : 'text/plain', charset };
};

/** The charset a page declares in its first bytes, `<meta charset="…">` or http-equiv. */
const metaCharset = (body: Uint8Array) =>
  /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(
    Buffer.from(body.subarray(0, 2048)).toString('latin1'),
  )?.[1];

const decode = (body: Uint8Array, charset: string | undefined) => {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
};

const cut = (text: string) => {
  const limit = webFetchLimits.characters;
  if (text.length <= limit) return { text, cut: false };
  return {
    text: `${text.slice(0, limit)}\n\n[… cut here: the page goes on past ${limit.toLocaleString('en-US')} characters]`,
    cut: true,
  };
};

/**
 * Fetches a web page through the outbound guard (safe-fetch.ts) and returns it as readable
 * Markdown. Every refusal or failure is a `{ error }` the model can read and act on.
 */
export const webFetch = async (
  input: { url: string },
  context: OutboundContext = {},
  signal?: AbortSignal,
): Promise<WebPage | ToolFailure> => {
  let response;
  try {
    response = await safeFetch(input.url, {
      headers: {
        accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
        'accept-language': 'en;q=0.9, *;q=0.5',
      },
      timeoutMs: webFetchLimits.timeoutMs,
      maxBytes: webFetchLimits.maxBytes,
      allow: context.allow,
      lookup: context.lookup,
      signal,
    });
  } catch (error) {
    if (error instanceof OutboundError) return toolFailure(error.message);
    throw error;
  }
  if (response.status >= 400) {
    return toolFailure(
      `${response.url} answered with HTTP status ${response.status}, so there is no page to read. Check the address.`,
    );
  }
  const { mime, charset } = describeBody(response.headers['content-type'], response.body);
  if (htmlTypes.has(mime)) {
    const html = decode(response.body, charset ?? metaCharset(response.body));
    const page = htmlToMarkdown(html, response.url);
    const content = cut(page.markdown);
    return {
      url: response.url,
      title: page.title,
      content_type: mime,
      content: content.text,
      truncated: content.cut || response.truncated,
    };
  }
  if (isTextType(mime)) {
    const content = cut(decode(response.body, charset));
    return {
      url: response.url,
      title: '',
      content_type: mime,
      content: content.text,
      truncated: content.cut || response.truncated,
    };
  }
  return toolFailure(
    `${response.url} is a ${mime} file. Web fetch reads web pages and text only, not other kinds of files.`,
  );
};

export const webFetchTool = (context: OutboundContext) =>
  tool({
    description:
      'Fetches a public web page by URL and returns its readable text as Markdown, with its ' +
      'title and final address (after redirects). Reads HTML pages and plain text (JSON, XML, ' +
      'CSV); long pages are cut at 20,000 characters. Private and local addresses are refused.',
    inputSchema: z.object({
      url: z
        .string()
        .min(1)
        .max(webFetchLimits.urlLength)
        .describe('The full http or https address, such as "https://example.com/page"'),
    }),
    execute: async ({ url }, { abortSignal }) => webFetch({ url }, context, abortSignal),
  });
