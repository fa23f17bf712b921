import { describe, expect, it } from 'vitest';
import { asSentence, joinSentences, sentenceProblems } from './sentences.ts';

describe('joining sentences', () => {
  it('ends each part with exactly one mark', () => {
    expect(joinSentences('Try another provider.', 'What arrived is saved')).toBe(
      'Try another provider. What arrived is saved.',
    );
    expect(joinSentences('It failed..', 'Retry.')).toBe('It failed. Retry.');
    expect(joinSentences('Is it down?', 'Retry!')).toBe('Is it down? Retry!');
    expect(joinSentences('Wait…', '')).toBe('Wait…');
  });

  it('leaves out what is missing', () => {
    expect(joinSentences('One', undefined, false, null, '  ')).toBe('One.');
  });

  it('keeps a closing quote or bracket after the mark', () => {
    expect(asSentence('It said "stop."')).toBe('It said "stop."');
    expect(asSentence('(see the docs)')).toBe('(see the docs).');
  });
});

describe('ending a sentence', () => {
  it('drops a stray mark before the full stop instead of doubling it', () => {
    expect(asSentence('Try again .')).toBe('Try again.');
    expect(asSentence('It broke:')).toBe('It broke.');
    expect(asSentence('Try again,.')).toBe('Try again.');
    expect(asSentence('Is it down?.')).toBe('Is it down?');
    expect(asSentence("should start with 'sk-'")).toBe("should start with 'sk-'.");
  });
});

describe('checking punctuation', () => {
  it('finds nothing wrong with whole sentences', () => {
    expect(sentenceProblems('Try again. Or pick "another" (one)!')).toEqual([]);
    expect(sentenceProblems('Authentication required', { finalMark: false })).toEqual([]);
  });

  it('names each fault', () => {
    expect(sentenceProblems('…another provider.. What arrived is saved')).toEqual([
      'starts with neither a capital letter nor a digit',
      'holds a doubled full stop',
      'does not end with exactly one of . ! ?',
    ]);
    expect(sentenceProblems(' Try again ,.  ')).toEqual([
      'has white space at either end',
      'starts with neither a capital letter nor a digit',
      'holds a mark right after a comma, colon or semicolon',
      'holds a space before a mark',
      'holds two spaces, a tab or a line break',
      'does not end with exactly one of . ! ?',
    ]);
    expect(sentenceProblems('Saved. . Done?!')).toEqual([
      'holds a doubled full stop',
      'holds a space before a mark',
      'does not end with exactly one of . ! ?',
    ]);
  });
});
