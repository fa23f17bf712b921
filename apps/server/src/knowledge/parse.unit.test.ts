import { knowledgeLimits, type KnowledgeFileType } from '@chorus/shared/api/knowledge';
import { describe, expect, it } from 'vitest';
import {
  countPdfPages,
  DocumentParseError,
  extractText,
  parseDocument,
  parseMessages,
  truncatedMarker,
  type ChunkDraft,
} from './parse.ts';
import { loadTokenCounter } from './tokens.ts';
import {
  makeBrokenPdf,
  makeDocx,
  makePdf,
  makeZipWithoutDocument,
  utf8,
} from './testing/fixtures.ts';

const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const numberedWords = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `w${from + i}`).join(' ');
const wordNumbers = (text: string) => [...text.matchAll(/\bw(\d+)\b/g)].map((m) => Number(m[1]));

/** The error a parse fails with, to assert its class and message. */
const failure = async (run: Promise<unknown>): Promise<DocumentParseError> => {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocumentParseError);
  return error as DocumentParseError;
};

/** What every chunk of every document must be: numbered in order, within size, clean. */
const expectWellFormed = async (chunks: ChunkDraft[], chunkTokens = 400) => {
  const count = await loadTokenCounter();
  expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  for (const chunk of chunks) {
    expect(chunk.text.trim()).not.toBe('');
    expect(chunk.text).toBe(chunk.text.trim());
    expect(chunk.text).not.toContain('\n\n\n');
    expect(chunk.text).not.toContain('\u0000');
    expect(chunk.token_count).toBe(count(chunk.text));
    expect(chunk.token_count).toBeLessThanOrEqual(chunkTokens);
  }
};

describe('parseDocument: plain text', () => {
  it('keeps a short file as one chunk, without NUL or other control characters', async () => {
    const { chunks, pages, chars } = await parseDocument(
      utf8('First\u0000 paragraph.\r\n\r\n\r\n\r\nSecond\u0007 paragraph.\n'),
      'text/plain',
    );
    expect(pages).toBeNull();
    expect(chars).toBe('First paragraph.\n\nSecond paragraph.'.length);
    expect(chunks).toEqual([
      {
        index: 0,
        text: 'First paragraph.\n\nSecond paragraph.',
        page: null,
        heading_path: [],
        rows: null,
        token_count: 6,
      },
    ]);
  });

  it('decodes invalid UTF-8 with replacement characters instead of failing', async () => {
    const bytes = new Uint8Array([...utf8('caf'), 0xc3, 0x28, ...utf8(' ok '), 0xff]);
    const { chunks } = await parseDocument(bytes, 'text/plain');
    expect(chunks[0]?.text).toBe('caf\uFFFD( ok \uFFFD');
  });

  it('splits a long text with overlap between consecutive chunks and no chunk over the size', async () => {
    const { chunks } = await parseDocument(utf8(numberedWords(2000)), 'text/plain');
    await expectWellFormed(chunks);
    expect(chunks.length).toBeGreaterThan(4);
    for (let i = 1; i < chunks.length; i++) {
      const before = wordNumbers(chunks[i - 1]!.text);
      const after = wordNumbers(chunks[i]!.text);
      const shared = after.filter((n) => before.includes(n));
      expect(shared.length, `chunks ${i - 1} and ${i} overlap`).toBeGreaterThan(0);
      expect(shared).toEqual(after.slice(0, shared.length));
    }
    expect(new Set(chunks.flatMap((c) => wordNumbers(c.text))).size).toBe(2000);
  });

  it('takes chunk and overlap sizes from the options', async () => {
    const { chunks } = await parseDocument(utf8(numberedWords(600)), 'text/plain', {
      chunkTokens: 100,
      overlapTokens: 0,
    });
    await expectWellFormed(chunks, 100);
    expect(chunks.flatMap((c) => wordNumbers(c.text))).toEqual(
      Array.from({ length: 600 }, (_, i) => i),
    );
  });
});

describe('parseDocument: Markdown', () => {
  it('chunks by section with each heading path, and splits a long section with overlap', async () => {
    const markdown = [
      'Preface line.',
      '# Handbook',
      'Welcome.',
      '## Leave',
      numberedWords(900),
      '### Sick days',
      'Call in before nine.',
      '## Pay',
      'Monthly.',
    ].join('\n\n');
    const { chunks } = await parseDocument(utf8(markdown), 'text/markdown');
    await expectWellFormed(chunks);
    expect(chunks[0]).toMatchObject({ text: 'Preface line.', heading_path: [] });
    expect(chunks[1]).toMatchObject({ text: '# Handbook\n\nWelcome.', heading_path: ['Handbook'] });
    const leave = chunks.filter((c) => c.heading_path.join('/') === 'Handbook/Leave');
    expect(leave.length).toBeGreaterThan(2);
    expect(leave[0]?.text.startsWith('## Leave\n\nw0 ')).toBe(true);
    for (let i = 1; i < leave.length; i++) {
      const last = wordNumbers(leave[i - 1]!.text).at(-1)!;
      expect(wordNumbers(leave[i]!.text)[0]).toBeLessThanOrEqual(last);
    }
    expect(chunks.slice(-2).map((c) => [c.text, c.heading_path])).toEqual([
      ['### Sick days\n\nCall in before nine.', ['Handbook', 'Leave', 'Sick days']],
      ['## Pay\n\nMonthly.', ['Handbook', 'Pay']],
    ]);
  });
});

describe('parseDocument: PDF', () => {
  it('chunks page by page, never across pages, with 1-based page numbers', async () => {
    const pdf = makePdf([
      'Page one talks about apples.',
      '',
      `Page three is long. ${numberedWords(700)}`,
      'Page four: the end (really) \\ done.',
    ]);
    const { pages, chunks, chars } = await parseDocument(pdf, 'application/pdf');
    await expectWellFormed(chunks);
    expect(pages).toBe(4);
    expect(chunks[0]).toMatchObject({
      text: 'Page one talks about apples.',
      page: 1,
      heading_path: [],
    });
    const third = chunks.filter((c) => c.page === 3);
    expect(third.length).toBeGreaterThan(1);
    expect(third[0]?.text.startsWith('Page three is long.')).toBe(true);
    expect(new Set(third.flatMap((c) => wordNumbers(c.text))).size).toBe(700);
    expect(chunks.at(-1)).toMatchObject({ text: 'Page four: the end (really) \\ done.', page: 4 });
    expect(chunks.map((c) => c.page)).not.toContain(2);
    expect(chars).toBeGreaterThan(700 * 3);
  });

  it('counts pages without extracting text', async () => {
    expect(await countPdfPages(makePdf(['a', 'b', 'c', 'd', 'e']))).toBe(5);
  });

  it('refuses a PDF with more pages than a document may have', async () => {
    const pdf = makePdf(Array.from({ length: knowledgeLimits.maxPages + 1 }, () => 'x'));
    const error = await failure(parseDocument(pdf, 'application/pdf'));
    expect(error.message).toBe(parseMessages.tooManyPages(knowledgeLimits.maxPages + 1));
    expect(error.reason).toBe('too_many_pages');
  });

  it('says a PDF without text needs OCR', async () => {
    const error = await failure(parseDocument(makePdf(['', '']), 'application/pdf'));
    expect(error.message).toBe(parseMessages.pdfNoText);
    expect(error.message).toContain('has no text to search (a scanned PDF needs OCR first)');
  });

  it('says a damaged PDF or one that is not a PDF cannot be read', async () => {
    for (const bytes of [makeBrokenPdf(), utf8('just some text, not a PDF')]) {
      const error = await failure(parseDocument(bytes, 'application/pdf'));
      expect(error.message).toBe(parseMessages.pdfUnreadable);
      await expect(countPdfPages(bytes)).rejects.toThrow(parseMessages.pdfUnreadable);
    }
  });
});

describe('parseDocument: Word', () => {
  it('follows the headings of a .docx into heading paths', async () => {
    const docx = await makeDocx([
      { style: 'Heading1', text: 'Handbook' },
      { text: 'Welcome to the team.' },
      { style: 'Heading2', text: 'Leave' },
      { style: 'Heading3', text: 'Sick days' },
      { text: 'Call in before nine.\nThen rest.' },
      { style: 'Heading2', text: 'Pay & bonuses' },
      { text: 'Paid monthly.' },
    ]);
    const { chunks, pages } = await parseDocument(docx, docxType);
    await expectWellFormed(chunks);
    expect(pages).toBeNull();
    expect(chunks.map((c) => [c.text, c.heading_path])).toEqual([
      ['# Handbook\n\nWelcome to the team.', ['Handbook']],
      ['### Sick days\n\nCall in before nine.\nThen rest.', ['Handbook', 'Leave', 'Sick days']],
      ['## Pay & bonuses\n\nPaid monthly.', ['Handbook', 'Pay & bonuses']],
    ]);
  });

  it('says which is wrong with a file that is not a .docx', async () => {
    const cases: [Uint8Array, string][] = [
      [utf8('plain text'), parseMessages.docxNotZip],
      [await makeZipWithoutDocument(), parseMessages.docxUnreadable],
      [
        new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
        parseMessages.docxOldFormat,
      ],
    ];
    for (const [bytes, message] of cases)
      expect((await failure(parseDocument(bytes, docxType))).message).toBe(message);
  });
});

describe('parseDocument: HTML', () => {
  it('keeps the body text and headings, without scripts, styles or navigation', async () => {
    const html = `<!doctype html><html><head><title>Tab title</title>
      <style>.secret-style { color: red }</style><script>window.secretScript = 1</script></head>
      <body><nav><a href="/">Home</a> NavLink</nav><header>Banner text</header>
      <h1>Guide</h1><p>Intro <b>bold</b> and <a href="https://example.org/x">a link</a>.</p>
      <script>alert('inline secret')</script><noscript>Enable JS</noscript>
      <h2>Details</h2><p>Deep text <img src="data:image/png;base64,AAAA" alt="a diagram"></p>
      <template><p>Template secret</p></template>
      <table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>31</td></tr></table>
      <footer>Footer text</footer></body></html>`;
    const { chunks } = await parseDocument(utf8(html), 'text/html');
    await expectWellFormed(chunks);
    expect(chunks.map((c) => [c.text, c.heading_path])).toEqual([
      ['# Guide\n\nIntro **bold** and [a link](https://example.org/x).', ['Guide']],
      [
        '## Details\n\nDeep text a diagram\n\n| Name | Age |\n| --- | --- |\n| Ann | 31 |',
        ['Guide', 'Details'],
      ],
    ]);
    const all = chunks.map((c) => c.text).join('\n');
    for (const absent of [
      'secret',
      'alert',
      'NavLink',
      'Banner',
      'Footer',
      'Enable JS',
      'Tab title',
      'base64',
    ])
      expect(all).not.toContain(absent);
  });

  it('takes the article of a web page, under its title, and leaves the page around it', async () => {
    const paragraph = (n: number) =>
      `<p>Paragraph ${n} of the article explains, at some length, how the harbour was built, who paid for it, and why the town grew around it over the following century.</p>`;
    const html = `<!doctype html><html><head><title>The Harbour</title></head><body>
      <div class="menu"><a href="/a">Shop</a> <a href="/b">Subscribe now</a></div>
      <article><h1>The Harbour</h1>${[1, 2, 3].map(paragraph).join('')}
      <h2>Later years</h2>${[4, 5, 6].map(paragraph).join('')}<script>track()</script></article>
      <div class="sidebar comments">Related: cheap flights</div></body></html>`;
    const { chunks } = await parseDocument(utf8(html), 'text/html');
    await expectWellFormed(chunks);
    expect(chunks[0]?.heading_path).toEqual(['The Harbour']);
    expect(chunks[0]?.text.startsWith('# The Harbour\n\nParagraph 1 of the article')).toBe(true);
    expect(chunks.at(-1)?.heading_path).toEqual(['The Harbour', 'Later years']);
    const all = chunks.map((c) => c.text).join('\n');
    expect(all).toContain('Paragraph 6 of the article');
    for (const absent of ['Subscribe', 'track()', 'cheap flights'])
      expect(all).not.toContain(absent);
  });
});

describe('parseDocument: CSV', () => {
  it('chunks by rows, each chunk with the header and its row range', async () => {
    const rows = Array.from(
      { length: 120 },
      (_, i) => `${i + 1},"Smith, Jo ${i + 1}","Line one\nline two"`,
    );
    const csv = `id,name,notes\r\n${rows.join('\r\n')}\r\n`;
    const { chunks } = await parseDocument(utf8(csv), 'text/csv', { chunkTokens: 120 });
    await expectWellFormed(chunks, 120);
    expect(chunks.length).toBeGreaterThan(3);
    let next = 1;
    for (const chunk of chunks) {
      expect(chunk.text.startsWith('id,name,notes\n')).toBe(true);
      expect(chunk.page).toBeNull();
      expect(chunk.rows?.from).toBe(next);
      expect(chunk.text).toBe(
        ['id,name,notes', ...rows.slice(chunk.rows!.from - 1, chunk.rows!.to)].join('\n'),
      );
      next = chunk.rows!.to + 1;
    }
    expect(next).toBe(121);
  });
});

describe('parseDocument: JSON', () => {
  it('pretty-prints a small document into one chunk', async () => {
    const { chunks } = await parseDocument(
      utf8('{"name":"Ann","tags":["a","b"]}'),
      'application/json',
    );
    expect(chunks.map((c) => c.text)).toEqual([
      '{\n  "name": "Ann",\n  "tags": [\n    "a",\n    "b"\n  ]\n}',
    ]);
  });

  it('splits a big document by its structure, within the chunk size', async () => {
    const items = Array.from({ length: 200 }, (_, id) => ({ id, label: `Item number ${id}` }));
    const { chunks } = await parseDocument(utf8(JSON.stringify({ items })), 'application/json');
    await expectWellFormed(chunks);
    expect(chunks.length).toBeGreaterThan(2);
    const ids = chunks.flatMap((c) =>
      [...c.text.matchAll(/"id": (\d+)/g)].map((m) => Number(m[1])),
    );
    expect(ids).toEqual(items.map((i) => i.id));
    expect(chunks[0]?.text.startsWith('$.items[0..')).toBe(true);
  });

  it('says where invalid JSON goes wrong, by line and column', async () => {
    const cases: [string, string, number, number][] = [
      ['{\n  "a": 1\n  "b": 2\n}', 'expected "," or "}" after a value, found a double quote', 3, 3],
      ['[1, 2,]', 'expected a value, found "]"', 1, 7],
      ['{"a": "open', 'a string is not closed with a double quote', 1, 12],
      ['{"a": 1} trailing', 'unexpected "t" after the end of the JSON value', 1, 10],
    ];
    for (const [json, problem, line, column] of cases) {
      const error = await failure(parseDocument(utf8(json), 'application/json'));
      expect(error.message).toBe(parseMessages.jsonInvalid(problem, line, column));
      expect(error.reason).toBe('invalid_json');
    }
  });
});

describe('parseDocument: empty and oversized files', () => {
  it('says a file with no text has nothing to search', async () => {
    const empty: [KnowledgeFileType, Uint8Array][] = [
      ['text/plain', utf8('')],
      ['text/markdown', utf8('  \n\n\t\n')],
      ['text/csv', utf8('\n\n')],
      ['application/json', utf8('{}')],
      ['application/json', utf8('')],
      ['text/html', utf8('<html><head><script>x()</script></head><body> </body></html>')],
      [docxType, await makeDocx([])],
    ];
    for (const [type, bytes] of empty) {
      const error = await failure(parseDocument(bytes, type));
      expect(error.message, type).toBe(parseMessages.empty(type));
      expect(error.message).toContain('has no text to search');
      expect(error.reason).toBe('empty');
    }
  });

  it('refuses a document past the character limit', async () => {
    const text = 'word '.repeat(knowledgeLimits.maxDocumentChars / 5 + 1);
    const error = await failure(parseDocument(utf8(text), 'text/plain'));
    expect(error.message).toBe(parseMessages.tooLong);
    expect(error.reason).toBe('too_long');
  });
});

describe('extractText', () => {
  it('marks each PDF page', async () => {
    const text = await extractText(makePdf(['Alpha page.', 'Beta page.']), 'application/pdf');
    expect(text).toBe('--- Page 1 ---\nAlpha page.\n\n--- Page 2 ---\nBeta page.');
  });

  it('gives HTML and Word documents as Markdown, JSON pretty-printed, CSV as it is', async () => {
    expect(
      await extractText(utf8('<h2>Hi</h2><p>there<script>x()</script></p>'), 'text/html'),
    ).toBe('## Hi\n\nthere');
    expect(
      await extractText(
        await makeDocx([{ style: 'Heading1', text: 'T' }, { text: 'b' }]),
        docxType,
      ),
    ).toBe('# T\n\nb');
    expect(await extractText(utf8('{"a":[1]}'), 'application/json')).toBe(
      '{\n  "a": [\n    1\n  ]\n}',
    );
    expect(await extractText(utf8('a,b\n"1,2",3\n'), 'text/csv')).toBe('a,b\n"1,2",3');
  });

  it('gives invalid JSON as it is, so a person can ask about it', async () => {
    expect(await extractText(utf8('{"a": 1,}'), 'application/json')).toBe('{"a": 1,}');
  });

  it('caps the text at maxChars and marks the cut', async () => {
    const text = await extractText(utf8(numberedWords(5000)), 'text/plain', { maxChars: 1000 });
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text.length).toBeGreaterThan(900);
    expect(text.endsWith(`\n${truncatedMarker}`)).toBe(true);
    expect(truncatedMarker).toBe('[… truncated]');
    expect(text.startsWith('w0 w1 w2')).toBe(true);
  });

  it('caps at 100,000 characters by default and leaves a short text alone', async () => {
    const long = await extractText(utf8('x '.repeat(80_000)), 'text/plain');
    expect(long.length).toBeLessThanOrEqual(100_000);
    expect(long.endsWith(truncatedMarker)).toBe(true);
    expect(await extractText(utf8('short'), 'text/plain')).toBe('short');
  });

  it('throws the same readable errors as parsing', async () => {
    expect((await failure(extractText(makeBrokenPdf(), 'application/pdf'))).message).toBe(
      parseMessages.pdfUnreadable,
    );
    expect((await failure(extractText(utf8(''), 'text/plain'))).message).toBe(
      parseMessages.empty('text/plain'),
    );
  });
});
