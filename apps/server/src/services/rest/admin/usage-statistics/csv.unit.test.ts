import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.ts';

describe('toCsv', () => {
  it('quotes commas, quotes and line breaks, and leaves plain cells alone', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          ['line\nbreak', 3],
          [null, 'plain'],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",3\r\n,plain\r\n');
  });

  it('keeps cells that look like formulas as text', () => {
    expect(toCsv(['email'], [['=HYPERLINK("x")'], ['+1'], ['-2'], ['@a']])).toBe(
      'email\r\n"\'=HYPERLINK(""x"")"\r\n\'+1\r\n\'-2\r\n\'@a\r\n',
    );
  });
});
