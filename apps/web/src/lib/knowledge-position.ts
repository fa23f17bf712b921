import type { ChunkPosition } from '@chorus/shared/api/knowledge';

type Position = Partial<Pick<ChunkPosition, 'index' | 'page' | 'heading_path' | 'rows'>>;

/**
 * Where a passage sits in its document, as a person reads it: "Page 3", "Setup › Keys",
 * "Rows 4–9", or its place among the passages when the document has no pages or headings.
 */
export const positionLabel = ({ index, page, heading_path, rows }: Position): string => {
  const parts: string[] = [];
  if (page !== null && page !== undefined) parts.push(`Page ${page}`);
  if (heading_path && heading_path.length > 0) parts.push(heading_path.join(' › '));
  if (rows) parts.push(rows.from === rows.to ? `Row ${rows.from}` : `Rows ${rows.from}–${rows.to}`);
  if (parts.length === 0 && index !== undefined) parts.push(`Passage ${index + 1}`);
  return parts.join(' · ');
};

/**
 * A passage's text as it reads best: a PDF's line breaks are where its page ran out of width, so
 * they become spaces (blank lines stay paragraph breaks); other documents keep theirs (a CSV's
 * rows, a Markdown list).
 */
export const readableText = (text: string, page: number | null | undefined): string =>
  page === null || page === undefined ? text : text.replace(/([^\n])\n(?=[^\n])/g, '$1 ');
