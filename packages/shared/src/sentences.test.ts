import { describe, expect, it } from 'vitest';
import { asSentence, joinSentences } from './sentences.ts';

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
