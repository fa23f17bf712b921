import type { AcceptedFileType } from '@chorus/shared/limits';

/** How many leading bytes are held back and checked before any byte is passed on. */
export const SNIFF_BYTES = 8 * 1024;

type Signature = { kind: BinaryKind; test: (head: Buffer) => boolean };
type BinaryKind = 'pdf' | 'png' | 'jpeg' | 'gif' | 'webp' | 'zip';

const startsWith = (head: Buffer, bytes: number[] | string, at = 0) => {
  const expected = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return (
    head.length >= at + expected.length && head.subarray(at, at + expected.length).equals(expected)
  );
};

const signatures: Signature[] = [
  { kind: 'pdf', test: (h) => startsWith(h, '%PDF-') },
  { kind: 'png', test: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { kind: 'jpeg', test: (h) => startsWith(h, [0xff, 0xd8, 0xff]) },
  { kind: 'gif', test: (h) => startsWith(h, 'GIF87a') || startsWith(h, 'GIF89a') },
  { kind: 'webp', test: (h) => startsWith(h, 'RIFF') && startsWith(h, 'WEBP', 8) },
  { kind: 'zip', test: (h) => startsWith(h, [0x50, 0x4b, 0x03, 0x04]) },
];

const expectedKind: Partial<Record<AcceptedFileType, BinaryKind>> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  // A .docx is a ZIP package; its parts are read (and refused if malformed) by the parser.
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'zip',
};

export const detectBinaryKind = (head: Buffer): BinaryKind | null =>
  signatures.find((s) => s.test(head))?.kind ?? null;

/**
 * Whether the first bytes agree with the declared type: binary types by their signature; text
 * types (plain, Markdown, CSV, JSON, HTML) must carry no binary signature and no NUL byte.
 * `head` is the first SNIFF_BYTES bytes, or the whole file when it is shorter.
 */
export const contentMatches = (declared: AcceptedFileType, head: Buffer): boolean => {
  const detected = detectBinaryKind(head);
  const expected = expectedKind[declared];
  if (expected) return detected === expected;
  return detected === null && !head.includes(0);
};
