import JSZip from 'jszip';

/**
 * Real files built in code for tests (unit and end-to-end), so that no binary file is committed.
 * Each is as small as the format allows while a real reader (PDF.js, mammoth) accepts it.
 */

const lineWidth = 90;

/** Text in lines of at most `width` characters, broken between words (inside a word too long). */
export const wrapLines = (text: string, width = lineWidth): string[] =>
  text.split('\n').flatMap((paragraph) => {
    const lines: string[] = [];
    let line = '';
    for (let word of paragraph.split(/\s+/).filter(Boolean)) {
      while (word.length > width) {
        if (line) lines.push(line);
        lines.push(word.slice(0, width));
        word = word.slice(width);
        line = '';
      }
      if (!line) line = word;
      else if (line.length + 1 + word.length <= width) line += ` ${word}`;
      else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
    return lines;
  });

/** Characters WinAnsiEncoding places where Latin-1 has control codes (0x80 to 0x9F). */
const winAnsiExtras: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  '„': 0x84,
  '…': 0x85,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '™': 0x99,
};

/**
 * A PDF string literal in WinAnsi bytes (one character each): backslashes and parentheses
 * escaped, control characters as octal, characters Helvetica's encoding lacks as "?".
 */
const pdfString = (text: string): string => {
  let out = '(';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '\\' || char === '(' || char === ')') out += `\\${char}`;
    else if (code < 0x20) out += `\\${code.toString(8).padStart(3, '0')}`;
    else if (code < 0x7f || (code >= 0xa0 && code <= 0xff)) out += char;
    else if (winAnsiExtras[char] !== undefined) out += String.fromCharCode(winAnsiExtras[char]);
    else out += '?';
  }
  return `${out})`;
};

/** One page's content stream: Helvetica 11 pt, one text line per line, Tj and TJ in turn. */
const pageContent = (text: string): string => {
  const ops = ['BT', '/F1 11 Tf', '14 TL', '50 742 Td'];
  for (const [i, line] of wrapLines(text).entries()) {
    if (i > 0) ops.push('T*');
    if (!line) continue;
    ops.push(i % 2 === 0 ? `${pdfString(line)} Tj` : `[${pdfString(line)}] TJ`);
  }
  ops.push('ET');
  return ops.join('\n');
};

/**
 * A valid PDF 1.4, one page per string, written by hand: catalog, page tree, the standard
 * Helvetica font, a content stream per page and a cross-reference table with the true offsets.
 * Every character is one byte (Latin-1), so string lengths are byte offsets.
 */
export const makePdf = (pages: string[]): Uint8Array => {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  for (const [i, text] of pages.entries()) {
    const id = pageIds[i]!;
    const content = pageContent(text);
    objects[id] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ` +
      `/Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`;
    objects[id + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  }
  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = pdf.length;
    pdf += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++)
    pdf += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, 'latin1'));
};

/** Starts like a PDF, then is nothing of the kind. */
export const makeBrokenPdf = (): Uint8Array =>
  new Uint8Array(Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Cat', 'latin1'));

export type DocxBlock = { style?: 'Heading1' | 'Heading2' | 'Heading3'; text: string };

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const wordNamespace = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const xmlDeclaration = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const contentTypes = `${xmlDeclaration}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
</Types>`;

const packageRels = `${xmlDeclaration}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`;

const documentRels = `${xmlDeclaration}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
</Relationships>`;

const headingStyle = (level: 1 | 2 | 3) =>
  `<w:style w:type="paragraph" w:styleId="Heading${level}"><w:name w:val="heading ${level}"/>` +
  `<w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>` +
  `<w:pPr><w:keepNext/><w:outlineLvl w:val="${level - 1}"/></w:pPr>` +
  `<w:rPr><w:b/><w:sz w:val="${36 - level * 4}"/></w:rPr></w:style>`;

const styles = `${xmlDeclaration}<w:styles xmlns:w="${wordNamespace}">
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>
${headingStyle(1)}
${headingStyle(2)}
${headingStyle(3)}
</w:styles>`;

/** A paragraph; line breaks in the text become Word line breaks. */
const paragraph = ({ style, text }: DocxBlock) => {
  const properties = style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : '';
  const runs = text
    .split('\n')
    .map((line) => `<w:t xml:space="preserve">${escapeXml(line)}</w:t>`)
    .join('<w:br/>');
  return `<w:p>${properties}<w:r>${runs}</w:r></w:p>`;
};

/**
 * A minimal valid .docx: content types, package and document relationships, the document and a
 * style sheet whose Heading1..3 are named "heading 1".."heading 3", as Word names them, so mammoth
 * maps them to h1..h3.
 */
export const makeDocx = async (blocks: DocxBlock[]): Promise<Uint8Array> => {
  const document = `${xmlDeclaration}<w:document xmlns:w="${wordNamespace}"><w:body>
${blocks.map(paragraph).join('\n')}
<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:body></w:document>`;
  const zip = new JSZip();
  zip.file('[Content_Types].xml', contentTypes);
  zip.file('_rels/.rels', packageRels);
  zip.file('word/document.xml', document);
  zip.file('word/styles.xml', styles);
  zip.file('word/_rels/document.xml.rels', documentRels);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
};

/** A real zip archive that holds no Word document. */
export const makeZipWithoutDocument = async (): Promise<Uint8Array> => {
  const zip = new JSZip();
  zip.file('notes/readme.txt', 'This archive is not a Word document.');
  return zip.generateAsync({ type: 'uint8array' });
};

/** Text as the bytes of a file. */
export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
