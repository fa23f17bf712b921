import { describe, expect, it } from 'vitest';
import { fillTemplate, missingVariables, templateVariables } from './template.ts';

describe('templateVariables', () => {
  it('lists each variable once, in order of first appearance, across every text', () => {
    expect(
      templateVariables(
        'Write about {{topic}}',
        'For {{audience}}',
        '{{topic}} in {{ words }} words',
      ),
    ).toEqual([
      { name: 'topic', default: null },
      { name: 'audience', default: null },
      { name: 'words', default: null },
    ]);
  });

  it('reads a default after a bar, trimmed, and keeps the first default written', () => {
    expect(
      templateVariables('{{tone}} then {{ tone | friendly }} then {{tone|formal}} and {{x|}}'),
    ).toEqual([
      { name: 'tone', default: 'friendly' },
      { name: 'x', default: '' },
    ]);
  });

  it('takes dotted names such as inputs.x and steps.y.output', () => {
    expect(templateVariables('{{inputs.city}} {{steps.fetch.output}}').map((v) => v.name)).toEqual([
      'inputs.city',
      'steps.fetch.output',
    ]);
  });

  it('ignores what is no variable: sections, helpers, expressions, single braces', () => {
    const text = '{{#each items}}{{/each}} {{> partial}} {{1 + 1}} {{a b}} {single} {{ }} {{}}';
    expect(templateVariables(text).map((v) => v.name)).toEqual([]);
  });
});

describe('missingVariables', () => {
  it('names the variables that have neither a value nor a default', () => {
    expect(
      missingVariables(['{{topic}} {{tone|friendly}}', '{{audience}}'], { audience: 'kids' }),
    ).toEqual(['topic']);
  });

  it('counts a blank value as missing, and an empty default as filled', () => {
    expect(missingVariables(['{{a}} {{b|}}'], { a: '   ' })).toEqual(['a']);
  });

  it('names a repeated variable once', () => {
    expect(missingVariables(['{{x}} {{x}}', '{{x}}'], {})).toEqual(['x']);
  });

  it('never takes an inherited property for a value', () => {
    expect(
      missingVariables(['{{constructor}} {{__proto__}} {{toString}} {{hasOwnProperty}}'], {}),
    ).toEqual(['constructor', '__proto__', 'toString', 'hasOwnProperty']);
  });
});

describe('fillTemplate', () => {
  it('puts in each value, else the default, and leaves a variable with neither as written', () => {
    expect(
      fillTemplate('{{greeting|Hello}}, {{ name }}! {{unknown}}', { name: 'Ada', extra: 'x' }),
    ).toBe('Hello, Ada! {{unknown}}');
  });

  it('fills every occurrence of a repeated variable', () => {
    expect(fillTemplate('{{x}}-{{ x }}-{{x|d}}', { x: '1' })).toBe('1-1-1');
  });

  it('inserts values as they are: braces in a value are not expanded again', () => {
    expect(fillTemplate('A {{a}} B {{b}}', { a: '{{b}}', b: '{{a}} $& $1 $$' })).toBe(
      'A {{b}} B {{a}} $& $1 $$',
    );
  });

  it('evaluates nothing: sections, helpers and object properties stay inert', () => {
    const text = '{{#each items}}x{{/each}} {{constructor}} {{__proto__}} {{toString}}';
    expect(fillTemplate(text, {})).toBe(text);
    expect(fillTemplate('{{constructor}}', { constructor: 'built' })).toBe('built');
    const values = JSON.parse('{"__proto__": "p", "toString": "t"}') as Record<string, string>;
    expect(fillTemplate('{{__proto__}} {{toString}}', values)).toBe('p t');
  });

  it('stays fast on long hostile input (no catastrophic backtracking)', () => {
    const hostile = [
      '{{'.repeat(100_000),
      `{{a|${'x'.repeat(200_000)}`,
      `{{${'a'.repeat(100_000)}}}`,
      `{{a ${' '.repeat(100_000)}`,
      '{{a|b'.repeat(40_000),
      '{{ a'.repeat(50_000),
    ];
    const started = performance.now();
    for (const text of hostile) {
      templateVariables(text);
      missingVariables([text], {});
      fillTemplate(text, { a: 'v' });
    }
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
