import { describe, expect, it } from 'vitest';
import {
  chunkCsv,
  chunkJson,
  chunkMarkdown,
  cleanText,
  markdownSections,
  normalizeWhitespace,
  readCsvRecords,
  TokenSplitter,
} from './chunk.ts';
import { loadTokenCounter } from './tokens.ts';

const splitterOf = async (chunkTokens: number, overlapTokens: number) =>
  new TokenSplitter(await loadTokenCounter(), { chunkTokens, overlapTokens });

/** "w0 w1 … w(n-1)": every word says where it stands. */
const numberedWords = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `w${from + i}`).join(' ');
const wordNumbers = (text: string) => [...text.matchAll(/\bw(\d+)\b/g)].map((m) => Number(m[1]));

describe('cleanText', () => {
  it('removes NUL and other control characters but keeps newlines and tabs', () => {
    expect(cleanText('a\u0000b\u0007c\td\r\ne\rf\u001bg\u007fh\u0085i')).toBe('abc\td\ne\nfghi');
  });

  it('replaces a lone surrogate, which no database text can hold', () => {
    expect(cleanText('ok \uD83D then 🎉')).toBe('ok \uFFFD then 🎉');
  });
});

describe('normalizeWhitespace', () => {
  it('collapses runs of blank lines and trims trailing spaces and blank edges', () => {
    expect(normalizeWhitespace('\n\n  one  \n\n\n \t \n\ntwo\t\n\n')).toBe('  one\n\ntwo');
  });
});

describe('markdownSections', () => {
  it('carries the path of headings above each section, outermost first', () => {
    const sections = markdownSections(
      [
        'Preamble.',
        '# Guide',
        'Intro.',
        '## Install',
        'Run it.',
        '### On Linux',
        'apt.',
        '## Use',
        'Click.',
        '# Appendix',
        'End.',
      ].join('\n'),
    );
    expect(sections.map((s) => s.headingPath)).toEqual([
      [],
      ['Guide'],
      ['Guide', 'Install'],
      ['Guide', 'Install', 'On Linux'],
      ['Guide', 'Use'],
      ['Appendix'],
    ]);
    expect(sections[3]).toMatchObject({ heading: '### On Linux', body: 'apt.' });
  });

  it('does not take a # line inside fenced code for a heading', () => {
    const sections = markdownSections('# Setup\n\n```bash\n# install it\nnpm i\n```\n\nDone.');
    expect(sections).toHaveLength(1);
    expect(sections[0]?.body).toContain('# install it');
  });

  it('reads setext headings and strips emphasis, code and links from heading text', () => {
    const sections = markdownSections(
      'Title\n=====\n\nText.\n\nPart *two*\n---\n\nMore.\n\n## The `run` [command](https://x.org) ##\nEnd.',
    );
    expect(sections.map((s) => s.headingPath)).toEqual([
      ['Title'],
      ['Title', 'Part two'],
      ['Title', 'The run command'],
    ]);
  });
});

describe('readCsvRecords', () => {
  it('keeps quoted commas, newlines and doubled quotes inside one record', () => {
    const csv = 'id,note\n1,"a, b"\n2,"line one\nline two"\n3,"she said ""hi"""\n\n4,plain';
    expect(readCsvRecords(csv)).toEqual([
      'id,note',
      '1,"a, b"',
      '2,"line one\nline two"',
      '3,"she said ""hi"""',
      '4,plain',
    ]);
  });

  it('finds a semicolon delimiter, so a quote starts a field after one', () => {
    expect(readCsvRecords('a;b\n1;"x\ny"\n2;z')).toEqual(['a;b', '1;"x\ny"', '2;z']);
  });

  it('runs a quote that is never closed to the end of the file', () => {
    expect(readCsvRecords('a,b\n1,"open\n2,3')).toEqual(['a,b', '1,"open\n2,3']);
  });
});

describe('TokenSplitter', () => {
  it('splits a long text into chunks of at most the size that overlap and cover every word', async () => {
    const splitter = await splitterOf(50, 10);
    const chunks = await splitter.split(numberedWords(300));
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) expect(splitter.count(chunk)).toBeLessThanOrEqual(50);
    const ranges = chunks.map((c) => wordNumbers(c));
    for (const [i, words] of ranges.entries()) {
      // Each chunk is a run of consecutive words.
      expect(words).toEqual(words.map((_, k) => words[0]! + k));
      const next = ranges[i + 1];
      if (!next) continue;
      expect(next[0], `chunk ${i + 1} repeats the end of chunk ${i}`).toBeLessThanOrEqual(
        words[words.length - 1]!,
      );
      expect(next[0]).toBeGreaterThan(words[0]!);
    }
    expect(new Set(ranges.flat()).size).toBe(300);
  });

  it('keeps a text that fits in one chunk whole', async () => {
    const splitter = await splitterOf(400, 60);
    expect(await splitter.split('One paragraph.\n\n\n\nAnother one.  ')).toEqual([
      'One paragraph.\n\nAnother one.',
    ]);
  });

  it('cuts a text with no spaces at all', async () => {
    const splitter = await splitterOf(20, 0);
    const chunks = await splitter.split('x'.repeat(2000));
    for (const chunk of chunks) expect(splitter.count(chunk)).toBeLessThanOrEqual(20);
    expect(chunks.join('')).toBe('x'.repeat(2000));
  });

  it('refuses an overlap as big as the chunk', async () => {
    await expect(splitterOf(50, 50)).rejects.toThrow(RangeError);
  });
});

describe('chunkMarkdown', () => {
  it('never merges two sections, and splits only the long one', async () => {
    const splitter = await splitterOf(60, 10);
    const markdown = `# A\n\nShort a.\n\n## B\n\n${numberedWords(200)}\n\n## C\n\nShort c.`;
    const pieces = await chunkMarkdown(markdown, splitter);
    expect(pieces[0]).toEqual({
      text: '# A\n\nShort a.',
      page: null,
      heading_path: ['A'],
      rows: null,
    });
    const b = pieces.filter((p) => p.heading_path.join('/') === 'A/B');
    expect(b.length).toBeGreaterThan(2);
    expect(b[0]?.text.startsWith('## B\n\nw0 ')).toBe(true);
    expect(pieces[pieces.length - 1]).toMatchObject({
      text: '## C\n\nShort c.',
      heading_path: ['A', 'C'],
    });
    for (const p of b) expect(p.text).not.toContain('Short');
  });

  it('gives a heading with only subheadings under it no chunk of its own', async () => {
    const pieces = await chunkMarkdown('# Top\n\n## Sub\n\nBody.', await splitterOf(400, 60));
    expect(pieces.map((p) => [p.text, p.heading_path])).toEqual([
      ['## Sub\n\nBody.', ['Top', 'Sub']],
    ]);
  });
});

describe('chunkCsv', () => {
  it('repeats the header in every chunk and records the data rows each holds', async () => {
    const splitter = await splitterOf(40, 0);
    const rows = Array.from({ length: 30 }, (_, i) => `${i + 1},"Name ${i + 1}, Jr.",${i * 7}`);
    const pieces = await chunkCsv(['id,name,score', ...rows].join('\n'), splitter);
    expect(pieces.length).toBeGreaterThan(3);
    let next = 1;
    for (const piece of pieces) {
      const [header, ...body] = piece.text.split('\n');
      expect(header).toBe('id,name,score');
      expect(piece.rows?.from).toBe(next);
      expect(body).toEqual(rows.slice(piece.rows!.from - 1, piece.rows!.to));
      expect(splitter.count(piece.text)).toBeLessThanOrEqual(40);
      next = piece.rows!.to + 1;
    }
    expect(next).toBe(31);
  });

  it('splits a row longer than a chunk into parts that each start with the header', async () => {
    const splitter = await splitterOf(40, 0);
    const pieces = await chunkCsv(`id,text\n1,short\n2,"${numberedWords(80)}"\n3,end`, splitter);
    expect(pieces[0]).toMatchObject({ text: 'id,text\n1,short', rows: { from: 1, to: 1 } });
    const long = pieces.filter((p) => p.rows?.from === 2);
    expect(long.length).toBeGreaterThan(1);
    for (const p of long) {
      expect(p.rows).toEqual({ from: 2, to: 2 });
      expect(p.text.startsWith('id,text\n')).toBe(true);
    }
    expect(pieces[pieces.length - 1]).toMatchObject({
      text: 'id,text\n3,end',
      rows: { from: 3, to: 3 },
    });
  });
});

describe('chunkJson', () => {
  it('keeps a small document whole and pretty-printed', async () => {
    const pieces = await chunkJson({ a: [1, 2], b: 'x' }, await splitterOf(400, 60));
    expect(pieces.map((p) => p.text)).toEqual([JSON.stringify({ a: [1, 2], b: 'x' }, null, 2)]);
  });

  it('splits a big document by its structure, each chunk labelled with its path', async () => {
    const splitter = await splitterOf(120, 10);
    const users = Array.from({ length: 20 }, (_, id) => ({
      id,
      name: `User ${id}`,
      tags: ['a', 'b'],
    }));
    const pieces = await chunkJson({ title: 'Staff', users }, splitter);
    expect(pieces[0]?.text).toBe('$\n{\n  "title": "Staff"\n}');
    const seen: unknown[] = [];
    for (const piece of pieces.slice(1)) {
      const [label, ...json] = piece.text.split('\n');
      const range = /^\$\.users\[(\d+)\.\.(\d+)\]$/.exec(label!);
      expect(range, label).not.toBeNull();
      const items = JSON.parse(json.join('\n')) as unknown[];
      expect(items).toEqual(users.slice(Number(range![1]), Number(range![2]) + 1));
      expect(splitter.count(piece.text)).toBeLessThanOrEqual(120);
      seen.push(...items);
    }
    expect(seen).toEqual(users);
  });

  it('splits a long string value as text under its path', async () => {
    const splitter = await splitterOf(40, 0);
    const pieces = await chunkJson({ 'the notes': numberedWords(100) }, splitter);
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces) expect(piece.text.startsWith('$["the notes"]\n')).toBe(true);
    expect(wordNumbers(pieces.map((p) => p.text).join(' '))).toEqual(
      Array.from({ length: 100 }, (_, i) => i),
    );
  });
});
