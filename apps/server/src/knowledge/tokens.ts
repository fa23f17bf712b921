import { Tiktoken } from 'js-tiktoken/lite';
import type { TiktokenBPE } from 'js-tiktoken/lite';

/** Counts cl100k_base tokens; get one with `loadTokenCounter`. */
export type TokenCounter = (text: string) => number;

/** Distinct pre-tokens remembered before the memo starts over (a few MB at most). */
const memoLimit = 100_000;

let loading: Promise<TokenCounter> | undefined;

/**
 * tiktoken splits text by its pattern into pre-tokens and encodes each alone, so the count is the
 * sum over pre-tokens. Words repeat, so remembering each pre-token's count makes counting about
 * 20 times faster than encoding the whole text, which matters because the splitter counts every
 * piece it tries.
 */
const createCounter = (ranks: TiktokenBPE): TokenCounter => {
  const encoder = new Tiktoken(ranks);
  const pattern = new RegExp(ranks.pat_str, 'gu');
  const memo = new Map<string, number>();
  return (text) => {
    let total = 0;
    for (const match of text.matchAll(pattern)) {
      const piece = match[0];
      let count = memo.get(piece);
      if (count === undefined) {
        // No special tokens: "<|endoftext|>" in a document is plain text.
        count = encoder.encode(piece, [], []).length;
        if (memo.size >= memoLimit) memo.clear();
        memo.set(piece, count);
      }
      total += count;
    }
    return total;
  };
};

/** The cl100k_base counter, built once on first use (its ranks take about 200 ms to load). */
export const loadTokenCounter = (): Promise<TokenCounter> => {
  loading ??= import('js-tiktoken/ranks/cl100k_base').then((m) => createCounter(m.default));
  return loading;
};
