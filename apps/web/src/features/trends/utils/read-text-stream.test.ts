import { describe, expect, it } from 'vitest';
import { readTextStream } from './read-text-stream';

/** Hands out one chunk per read, then ends or fails (an error drops chunks still queued). */
const streamOf = (chunks: Uint8Array[], fail?: Error) => {
  const left = [...chunks];
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = left.shift();
      if (chunk) controller.enqueue(chunk);
      else if (fail) controller.error(fail);
      else controller.close();
    },
  });
};

const collect = async (body: ReadableStream<Uint8Array>) => {
  const pieces: string[] = [];
  for await (const piece of readTextStream(body)) pieces.push(piece);
  return pieces;
};

describe('reading a streamed text answer', () => {
  it('hands over each piece as it comes', async () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    expect(
      await collect(streamOf([encode('Code review '), encode('is rising '), encode('fastest.')])),
    ).toEqual(['Code review ', 'is rising ', 'fastest.']);
  });

  it('never splits a character whose bytes arrive in two chunks', async () => {
    const bytes = new TextEncoder().encode('Ça monte — vite 📈');
    const cut = bytes.indexOf(0xe2) + 1; // inside the em dash
    const pieces = await collect(
      streamOf([bytes.slice(0, cut), bytes.slice(cut, -2), bytes.slice(-2)]),
    );
    expect(pieces.join('')).toBe('Ça monte — vite 📈');
    expect(pieces.some((piece) => piece.includes('\uFFFD'))).toBe(false);
  });

  it('yields nothing for an empty body', async () => {
    expect(await collect(streamOf([]))).toEqual([]);
  });

  it('passes on a failure after the text that came before it', async () => {
    const pieces: string[] = [];
    const body = streamOf([new TextEncoder().encode('Half an ')], new Error('connection reset'));
    await expect(async () => {
      for await (const piece of readTextStream(body)) pieces.push(piece);
    }).rejects.toThrow('connection reset');
    expect(pieces).toEqual(['Half an ']);
  });
});
