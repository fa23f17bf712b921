import { describe, expect, it } from 'vitest';
import { messageFor } from '@chorus/shared/error-catalogue';
import {
  assertionProblems,
  describeImportError,
  parseShorthand,
  parseTestCaseImport,
} from './import.ts';

const judge = { provider: 'openai' as const, model: 'gpt-4o-mini' };

const csv = (content: string, withJudge = false) =>
  parseTestCaseImport({ format: 'csv', content, ...(withJudge && { judge }) });
const json = (value: unknown, withJudge = false) =>
  parseTestCaseImport({
    format: 'json',
    content: typeof value === 'string' ? value : JSON.stringify(value),
    ...(withJudge && { judge }),
  });

describe('CSV import', () => {
  it('reads the known columns, turns every other column into a variable and names unnamed cases', () => {
    const { cases, errors } = csv(
      [
        'name,input,expected_output,topic,tone',
        'Refunds,"Hello, I want a refund",A polite refusal,refunds,firm',
        ',Second message,,billing,',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
    expect(cases).toEqual([
      {
        name: 'Refunds',
        input: 'Hello, I want a refund',
        variables: { topic: 'refunds', tone: 'firm' },
        expected_output: 'A polite refusal',
        assertions: [],
      },
      {
        name: 'Case 2',
        input: 'Second message',
        variables: { topic: 'billing' },
        expected_output: null,
        assertions: [],
      },
    ]);
  });

  it('reads every shorthand assertion and a JSON assertions column', () => {
    const { cases, errors } = csv(
      [
        'name,input,assert,assert_2,assert_3,assert_4,assert_5,assert_6,assert_7,assert_8,assertions',
        `One,hi,contains:refund,not-contains:sorry,regex:^\\d{3}$,equals:exactly this,is-json,judge:Is it polite?,max-length:280,latency:2000,"[{""type"":""cost"",""max_usd"":0.01}]"`,
      ].join('\n'),
      true,
    );
    expect(errors).toEqual([]);
    expect(cases[0]!.assertions).toEqual([
      { type: 'contains', values: ['refund'], mode: 'any', ignore_case: true },
      { type: 'not_contains', values: ['sorry'], ignore_case: true },
      { type: 'regex', pattern: '^\\d{3}$', flags: '' },
      { type: 'equals', value: 'exactly this', ignore_case: false },
      { type: 'is_json' },
      {
        type: 'judge',
        rubric: 'Is it polite?',
        provider: 'openai',
        model: 'gpt-4o-mini',
        pass_score: 0.7,
      },
      { type: 'length', min: null, max: 280 },
      { type: 'latency', max_ms: 2000 },
      { type: 'cost', max_usd: 0.01 },
    ]);
  });

  it('keeps a colon inside a shorthand value and reads bare equals as the expected output', () => {
    expect(parseShorthand('contains:a: b', undefined)).toEqual({
      assertion: { type: 'contains', values: ['a: b'] },
    });
    expect(parseShorthand('equals', undefined)).toEqual({
      assertion: { type: 'equals', value: null },
    });
    expect(parseShorthand('IS_JSON', undefined)).toEqual({ assertion: { type: 'is_json' } });
  });

  it('refuses a judge shorthand when no judge model was picked', () => {
    const { cases, errors } = csv('name,input,assert\nOne,hi,judge:Is it kind?');
    expect(cases).toEqual([]);
    expect(errors).toEqual([{ row: 1, message: expect.stringContaining('judge model') }]);
  });

  it('names each bad row and keeps the good ones apart', () => {
    const { cases, errors } = csv(
      [
        'name,input,assert,assertions',
        'Good,hi,contains:x,',
        'Bad shorthand,hi,sounds-nice,',
        'Bad json,hi,,not json',
        'Bad length,hi,max-length:lots,',
        'Bad regex,hi,regex:(a)\\1,',
      ].join('\n'),
    );
    expect(cases).toHaveLength(1);
    expect(errors.map((e) => e.row)).toEqual([2, 3, 4, 5]);
    expect(errors[0]!.message).toContain('not an assertion shorthand');
    expect(errors[1]!.message).toBe('the assertions column is not a JSON array');
    expect(errors[2]!.message).toContain('whole number');
    expect(errors[3]!.message).toContain('not valid RE2');
  });

  it('refuses a row with more fields than the header, a repeated column and malformed CSV', () => {
    expect(csv('name,input\nOne,hi,extra').errors).toEqual([
      { row: 1, message: 'it has 3 fields, the header 2' },
    ]);
    expect(csv('name,Name\nOne,two').errors[0]!.message).toContain('twice');
    expect(csv('name,input\n"unclosed,hi').errors[0]!.message).toContain('not valid CSV');
    expect(csv('name,input\n').errors[0]!.message).toContain('no rows');
  });

  it('checks cases with the same rules as hand-made ones', () => {
    const { errors } = csv(`name,input\nOne,${'x'.repeat(20_001)}`);
    expect(errors).toEqual([{ row: 1, message: 'the input is at most 20,000 characters (input)' }]);
  });

  it('takes a column named like an object property as a plain variable', () => {
    const { cases, errors } = csv('name,__proto__,constructor\nOne,a,b');
    expect(errors).toEqual([]);
    expect(Object.getPrototypeOf(cases[0]!.variables)).toBe(Object.prototype);
    expect(cases[0]!.variables.constructor).toBe('b');
  });
});

describe('JSON import', () => {
  it('reads an array of cases with defaults, shorthand strings and the chosen judge', () => {
    const { cases, errors } = json(
      [
        { name: 'A', input: 'hello', variables: { n: 3, ok: true, word: 'x' } },
        {
          input: 'b',
          expected_output: 'B',
          assertions: ['contains:b', { type: 'judge', rubric: 'Is it short?' }],
        },
      ],
      true,
    );
    expect(errors).toEqual([]);
    expect(cases[0]).toEqual({
      name: 'A',
      input: 'hello',
      variables: { n: '3', ok: 'true', word: 'x' },
      expected_output: null,
      assertions: [],
    });
    expect(cases[1]!.name).toBe('Case 2');
    expect(cases[1]!.assertions).toEqual([
      { type: 'contains', values: ['b'], mode: 'any', ignore_case: true },
      {
        type: 'judge',
        rubric: 'Is it short?',
        provider: 'openai',
        model: 'gpt-4o-mini',
        pass_score: 0.7,
      },
    ]);
  });

  it('refuses what is not an array of case objects, and unknown fields', () => {
    expect(json('{nope').errors[0]!.message).toContain('not valid JSON');
    expect(json({ a: 1 }).errors[0]!.message).toBe('the file is not a JSON array of cases');
    expect(json([]).errors[0]!.message).toBe('the file holds no cases');
    const mixed = json(['text', { name: 'x', colour: 'red' }, { name: 'y', assertions: 'no' }]);
    expect(mixed.errors.map((e) => e.row)).toEqual([1, 2, 3]);
    expect(mixed.errors[0]!.message).toBe('a case must be a JSON object');
    expect(mixed.cases).toEqual([]);
  });

  it('accepts an object with a cases array', () => {
    expect(json({ cases: [{ name: 'x' }] }).cases).toHaveLength(1);
  });

  it('refuses an unknown assertion type with the list of types', () => {
    const { errors } = json([{ name: 'x', assertions: [{ type: 'javascript', code: '1' }] }]);
    expect(errors[0]!.message).toContain('nknown assertion type');
  });
});

describe('import limits and messages', () => {
  it('refuses a file with more cases than a set holds', () => {
    const rows = Array.from({ length: 501 }, (_, i) => `Case ${i},hi`).join('\n');
    const { cases, errors } = csv(`name,input\n${rows}`);
    expect(cases).toEqual([]);
    expect(errors[0]!.message).toContain('at most 500');
  });

  it('words the first error as the error catalogue’s detail expects', () => {
    const first = describeImportError({
      row: 3,
      message: 'the assertions column is not a JSON array',
    });
    expect(messageFor('test_sets:bad_import', { count: 2, first })).toContain(
      'row 3: the assertions column is not a JSON array',
    );
    expect(describeImportError({ row: 0, message: 'the file holds no cases' })).toBe(
      'the file holds no cases',
    );
  });

  it('finds RE2-refused patterns among assertions', () => {
    expect(assertionProblems([{ type: 'regex', pattern: '(?=x)', flags: '' }])).toHaveLength(1);
    expect(assertionProblems([{ type: 'regex', pattern: '^a+$', flags: 'i' }])).toEqual([]);
  });
});
