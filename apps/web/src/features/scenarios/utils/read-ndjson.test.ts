import { describe, expect, it } from 'vitest';
import { readNdjson } from './read-ndjson';

const streamOf = (chunks: (string | Uint8Array)[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      const encoder = new TextEncoder();
      for (const chunk of chunks) {
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      }
      controller.close();
    },
  });

const readAll = async (chunks: (string | Uint8Array)[]) => {
  const out: unknown[] = [];
  for await (const value of readNdjson(streamOf(chunks))) out.push(value);
  return out;
};

describe('readNdjson', () => {
  it('yields one object per line', async () => {
    expect(await readAll(['{"a":1}\n{"b":2}\n'])).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('joins a line split across chunks before parsing it', async () => {
    expect(await readAll(['{"type":"del', 'ta","text":"Hel', 'lo"}\n{"x"', ':2}\n'])).toEqual([
      { type: 'delta', text: 'Hello' },
      { x: 2 },
    ]);
  });

  it('keeps a character whose bytes are split across chunks', async () => {
    const bytes = new TextEncoder().encode('{"text":"café ☕"}\n');
    const cut = bytes.length - 4;
    expect(await readAll([bytes.slice(0, cut), bytes.slice(cut)])).toEqual([{ text: 'café ☕' }]);
  });

  it('reads a last line that has no newline, and skips blank lines and carriage returns', async () => {
    expect(await readAll(['\n{"a":1}\r\n\n', '{"end":true}'])).toEqual([{ a: 1 }, { end: true }]);
  });

  it('fails plainly on a line that is not JSON', async () => {
    await expect(readAll(['{"a":1}\n<html>\n'])).rejects.toThrow(/not JSON/);
  });
});
