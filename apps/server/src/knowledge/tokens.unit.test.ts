import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { loadTokenCounter } from './tokens.ts';

describe('loadTokenCounter', () => {
  it('counts as many cl100k_base tokens as encoding the whole text does', async () => {
    const count = await loadTokenCounter();
    const encoder = new Tiktoken(cl100k);
    const texts = [
      'Hello, world!',
      'The quick brown fox jumps over the lazy dog.\n\n  Indented line\twith a tab.',
      '日本語のテキストと絵文字 🎉👩‍👩‍👧 and 12345678 numbers',
      'A document may say <|endoftext|> without it being special.',
      '',
    ];
    for (const text of texts) expect(count(text), text).toBe(encoder.encode(text, [], []).length);
  });

  it('gives the same counter every time', async () => {
    expect(await loadTokenCounter()).toBe(await loadTokenCounter());
  });
});
