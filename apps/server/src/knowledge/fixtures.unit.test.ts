import mammoth from 'mammoth';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { makeDocx, makePdf, wrapLines } from './testing/fixtures.ts';

describe('makePdf', () => {
  it('writes a PDF that PDF.js reads back page by page, escapes and all', async () => {
    const pdf = makePdf([
      'First page: parentheses (like these) and a back\\slash.',
      'Second page, café at 5 €.',
    ]);
    const proxy = await getDocumentProxy(pdf.slice(), { verbosity: 0 });
    expect(proxy.numPages).toBe(2);
    const { text } = await extractText(proxy, { mergePages: false });
    await proxy.loadingTask.destroy();
    expect(text[0]?.trim()).toBe('First page: parentheses (like these) and a back\\slash.');
    expect(text[1]?.trim()).toBe('Second page, café at 5 €.');
  });

  it('writes a cross-reference table whose offsets point at each object', () => {
    const source = Buffer.from(makePdf(['One', 'Two'])).toString('latin1');
    const xrefAt = Number(/startxref\n(\d+)/.exec(source)?.[1]);
    expect(source.slice(xrefAt, xrefAt + 4)).toBe('xref');
    const offsets = [...source.matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(7);
    for (const [i, offset] of offsets.entries())
      expect(source.slice(offset, offset + 8)).toBe(`${i + 1} 0 obj\n`);
  });

  it('puts each line of text in lines of at most 90 characters, keeping every word', () => {
    const text = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const lines = wrapLines(`${text}\n\nNext paragraph`);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(90);
    expect(lines.join(' ').split(/\s+/).filter(Boolean)).toEqual([
      ...text.split(' '),
      'Next',
      'paragraph',
    ]);
  });
});

describe('makeDocx', () => {
  it('writes a .docx that mammoth reads with its headings as h1 to h3', async () => {
    const docx = await makeDocx([
      { style: 'Heading1', text: 'Handbook' },
      { text: 'Welcome & <hello>.' },
      { style: 'Heading2', text: 'Leave' },
      { style: 'Heading3', text: 'Sick days' },
      { text: 'Call in before nine.' },
    ]);
    const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(docx) });
    expect(value).toBe(
      '<h1>Handbook</h1><p>Welcome &amp; &lt;hello&gt;.</p><h2>Leave</h2><h3>Sick days</h3><p>Call in before nine.</p>',
    );
  });
});
