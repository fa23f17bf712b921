import { describe, expect, it } from 'vitest';
import { decodeConversationCursor, decodeCursor, encodeCursor } from './keyset-cursor.ts';

const id = '00000000-0000-4000-8000-000000000000';
const forge = (text: string) => Buffer.from(text).toString('base64url');

describe('page cursors', () => {
  it('reads back what the server wrote, at the first and last dates a date may name', () => {
    for (const iso of [
      '2025-01-31T09:30:00.000Z',
      '0001-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ]) {
      const row = { created_at: new Date(iso), id };
      expect(decodeCursor(encodeCursor(row))).toEqual(row);
    }
  });

  it('refuses a forged date the database cannot take, which once became a 500', () => {
    for (const iso of [
      '0000-01-01T00:00:00.000Z',
      '-000001-01-01T00:00:00.000Z',
      '+010000-01-01T00:00:00.000Z',
      '+275760-09-13T00:00:00.000Z',
      'not a date',
    ]) {
      expect(decodeCursor(forge(`${iso}|${id}`)), iso).toBeNull();
      expect(decodeConversationCursor(forge(`pinned|${iso}|${id}`)), iso).toBeNull();
    }
  });
});
