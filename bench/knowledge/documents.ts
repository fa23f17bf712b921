/**
 * Real files for the ingestion measurement, one or more of each accepted type, built from the
 * bench corpus: Markdown and HTML with sections, a text file, a CSV, a multi-page PDF and a docx.
 */
import type { KnowledgeFileType } from '@chorus/shared/api/knowledge';
import { makeDocx, makePdf, utf8 } from '../../apps/server/src/knowledge/testing/fixtures.ts';
import { chunkText, general, markdownDocument, prng, topics } from './corpus.ts';

export type BenchFile = { name: string; type: KnowledgeFileType; bytes: Uint8Array };

const title = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`;

/**
 * Section `s` of file `file` in ingestion run `run`: the number of its text in the corpus. Each
 * run writes new text (same sizes, same statistics): pgvector files a vector equal to one the
 * index already holds (even a deleted one) as a duplicate of it, at a fraction of the cost of a
 * real insert, so a run that ingested what an earlier one did would measure that shortcut.
 */
const textId = (run: number, file: number, s: number) =>
  10_000_000 + run * 100_000 + file * 1000 + s;

const htmlDocument = (firstId: number, topic: number, sections: number) => {
  const t = topics[topic]!;
  const body = Array.from({ length: sections }, (_, s) => {
    const paragraphs = chunkText(firstId + s, topic)
      .split('\n\n')
      .map((p) => `<p>${p}</p>`)
      .join('\n');
    return `<section><h2>${title(t[s % t.length]!)} ${general[s % 50]}</h2>\n${paragraphs}</section>`;
  }).join('\n');
  return `<!doctype html><html><head><title>${title(t[0]!)} notes</title>
<script>window.analytics = { track() {} };</script><style>p { margin: 0 }</style></head>
<body><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
<main><article><h1>${title(t[0]!)} notes</h1>
${body}
</article></main><footer>© Example</footer></body></html>`;
};

const csvDocument = (seed: number, rows: number) => {
  const random = prng(seed);
  const lines = ['id,date,region,category,amount,status,note'];
  for (let i = 1; i <= rows; i++) {
    const word = () => general[Math.floor(random() * general.length)]!;
    const topic = topics[Math.floor(random() * topics.length)]!;
    lines.push(
      [
        `T-${seed}-${i}`,
        `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
        word(),
        topic[0],
        (random() * 5000).toFixed(2),
        random() < 0.8 ? 'closed' : 'open',
        `"${[word(), topic[Math.floor(random() * topic.length)], word(), word(), word()].join(' ')}"`,
      ].join(','),
    );
  }
  return lines.join('\n');
};

/**
 * About 675 chunks in all with the server's chunker (400 tokens, 60 overlap). `run` picks the
 * text (see `textId`); any whole number gives files of the same shape.
 */
export const ingestionFiles = async (run: number): Promise<BenchFile[]> => {
  const files: BenchFile[] = [];
  for (let i = 0; i < 6; i++) {
    files.push({
      name: `${topics[i]![0]}-guide.md`,
      type: 'text/markdown',
      bytes: utf8(markdownDocument(textId(run, i, 0), i, 30)),
    });
  }
  for (let i = 0; i < 2; i++) {
    files.push({
      name: `${topics[10 + i]![0]}-notes.html`,
      type: 'text/html',
      bytes: utf8(htmlDocument(textId(run, 6 + i, 0), 10 + i, 25)),
    });
  }
  files.push({
    name: 'minutes.txt',
    type: 'text/plain',
    bytes: utf8(
      Array.from({ length: 40 }, (_, p) => chunkText(textId(run, 8, p), 20)).join('\n\n'),
    ),
  });
  files.push({
    name: 'ledger.csv',
    type: 'text/csv',
    bytes: utf8(csvDocument(textId(run, 9, 0), 1500)),
  });
  files.push({
    name: 'handbook.pdf',
    type: 'application/pdf',
    bytes: makePdf(Array.from({ length: 40 }, (_, p) => chunkText(textId(run, 10, p), 25))),
  });
  files.push({
    name: 'policies.docx',
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    bytes: await makeDocx(
      Array.from({ length: 30 }, (_, s) => [
        { style: 'Heading1' as const, text: `${title(topics[30]![s % 8]!)} ${general[s]}` },
        ...chunkText(textId(run, 11, s), 30)
          .split('\n\n')
          .map((text) => ({ text })),
      ]).flat(),
    ),
  });
  return files;
};
