import { describe, expect, it } from 'vitest';
import {
  assertionSchema,
  testRunLimits,
  type Assertion,
  type AssertionResult,
} from '@chorus/shared/api/test-runs';
import { checkAssertions, describeAssertion, type Judge, type Observation } from './assertions.ts';

const observe = (output: string, more: Partial<Observation> = {}): Observation => ({
  input: 'What is the capital of France?',
  output,
  expectedOutput: null,
  latencyMs: 800,
  costUsd: 0.0004,
  ...more,
});

const noJudge: Judge = () => Promise.reject(new Error('no judge in this test'));

/** One assertion (as the API would store it, defaults filled in) on one output. */
const check = async (assertion: unknown, observation: Observation): Promise<AssertionResult> => {
  const [result] = await checkAssertions([assertionSchema.parse(assertion)], observation, noJudge);
  return result!;
};

const passes = async (assertion: unknown, observation: Observation) =>
  (await check(assertion, observation)).passed;

describe('equals', () => {
  it('compares with its value, trimmed, and with case only when asked', async () => {
    expect(await check({ type: 'equals', value: 'Paris' }, observe('  Paris \n'))).toEqual({
      type: 'equals',
      passed: true,
      reason: 'Equals “Paris”',
      score: null,
    });
    expect(await passes({ type: 'equals', value: 'Paris' }, observe('paris'))).toBe(false);
    expect(
      await passes({ type: 'equals', value: 'Paris', ignore_case: true }, observe('PARIS')),
    ).toBe(true);
  });

  it('compares with the case’s expected output when it has no value', async () => {
    const o = observe('Paris.', { expectedOutput: 'Paris' });
    const result = await check({ type: 'equals' }, o);
    expect(result.passed).toBe(false);
    expect(result.reason).toBe('Differs from the expected output from character 6');
    expect(await passes({ type: 'equals' }, observe('Paris', { expectedOutput: 'Paris' }))).toBe(
      true,
    );
  });

  it('fails with a reason when there is nothing to compare with', async () => {
    expect(await check({ type: 'equals' }, observe('Paris'))).toMatchObject({
      passed: false,
      reason: 'No expected output to compare with',
    });
  });
});

describe('contains and not_contains', () => {
  it('passes `any` on one of the values, ignoring case by default', async () => {
    const result = await check({ type: 'contains', values: ['paris', 'Lyon'] }, observe('PARIS!'));
    expect(result).toMatchObject({ passed: true, reason: 'Contains “paris”' });
    expect(
      await check({ type: 'contains', values: ['Rome', 'Oslo'] }, observe('Paris')),
    ).toMatchObject({ passed: false, reason: 'Contains none of “Rome”, “Oslo”' });
  });

  it('names what is missing in `all` mode', async () => {
    const a = { type: 'contains', values: ['Paris', 'Rome', 'Oslo'], mode: 'all' };
    expect(await check(a, observe('Paris is lovely'))).toMatchObject({
      passed: false,
      reason: 'Missing “Rome”, “Oslo”',
    });
    expect(await passes(a, observe('Paris, Rome and Oslo'))).toBe(true);
  });

  it('lists a few values in a reason, then how many more', async () => {
    const values = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'];
    expect(await check({ type: 'contains', values, mode: 'all' }, observe('none'))).toMatchObject({
      reason: 'Missing “a1”, “a2”, “a3”, “a4”, “a5” and 2 more',
    });
  });

  it('respects case when told to', async () => {
    expect(
      await passes({ type: 'contains', values: ['Paris'], ignore_case: false }, observe('paris')),
    ).toBe(false);
  });

  it('fails not_contains on any value found, naming them', async () => {
    const a = { type: 'not_contains', values: ['sorry', 'as an AI'] };
    expect(await check(a, observe('Sorry, as an ai I cannot'))).toMatchObject({
      passed: false,
      reason: 'Contains “sorry”, “as an AI”',
    });
    expect(await check(a, observe('Paris'))).toMatchObject({
      passed: true,
      reason: 'Contains none of “sorry”, “as an AI”',
    });
  });
});

describe('regex', () => {
  it('finds the pattern anywhere, with the i, m and s flags', async () => {
    expect(await check({ type: 'regex', pattern: '^\\d+$' }, observe('12345'))).toMatchObject({
      passed: true,
      reason: 'Matches /^\\d+$/',
    });
    expect(await passes({ type: 'regex', pattern: '^\\d+$' }, observe('total:\n42'))).toBe(false);
    expect(
      await passes({ type: 'regex', pattern: '^\\d+$', flags: 'm' }, observe('total:\n42')),
    ).toBe(true);
    expect(await passes({ type: 'regex', pattern: 'paris', flags: 'i' }, observe('PARIS'))).toBe(
      true,
    );
    expect(await passes({ type: 'regex', pattern: 'a.b' }, observe('a\nb'))).toBe(false);
    expect(await passes({ type: 'regex', pattern: 'a.b', flags: 's' }, observe('a\nb'))).toBe(true);
  });

  it('returns on catastrophic-backtracking patterns over long input (RE2 is linear)', async () => {
    const long = `${'a'.repeat(testRunLimits.outputChars - 1)}!`;
    expect(await passes({ type: 'regex', pattern: '(a+)+$' }, observe(long))).toBe(false);
    expect(await passes({ type: 'regex', pattern: '(a|a)*b' }, observe(long))).toBe(false);
    expect(await passes({ type: 'regex', pattern: '(x+x+)+y' }, observe('x'.repeat(40_000)))).toBe(
      false,
    );
  });

  it('looks only at the first outputChars characters', async () => {
    const output = `${'a'.repeat(testRunLimits.outputChars)}needle`;
    expect(await passes({ type: 'regex', pattern: 'needle' }, observe(output))).toBe(false);
  });

  it('refuses look-around and backreferences with a reason that says why', async () => {
    const behind = await check({ type: 'regex', pattern: '(?<=\\$)\\d+' }, observe('$5'));
    expect(behind.passed).toBe(false);
    expect(behind.reason).toMatch(/^Look-behind .* not supported: patterns are RE2/);
    const ahead = await check({ type: 'regex', pattern: 'a(?!b)' }, observe('ac'));
    expect(ahead.reason).toMatch(/^Look-ahead .* not supported/);
    const backref = await check({ type: 'regex', pattern: '(a)\\1' }, observe('aa'));
    expect(backref.reason).toMatch(/^Backreferences .* not supported/);
    // An escaped backslash before a digit is no backreference.
    expect(await passes({ type: 'regex', pattern: '\\\\1' }, observe('\\1'))).toBe(true);
  });

  it('fails a pattern that does not compile, naming the problem', async () => {
    expect(await check({ type: 'regex', pattern: '(unclosed' }, observe('x'))).toMatchObject({
      passed: false,
      reason: 'The pattern is not valid: missing closing ): `(unclosed`',
    });
    const range = await check({ type: 'regex', pattern: '[z-a]' }, observe('x'));
    expect(range.reason).toContain('invalid character class range');
  });
});

describe('is_json', () => {
  it('accepts the whole output as JSON, trimmed, or one fenced json block', async () => {
    expect(await check({ type: 'is_json' }, observe(' {"a": [1, 2]}\n'))).toMatchObject({
      passed: true,
      reason: 'Valid JSON',
    });
    expect(await check({ type: 'is_json' }, observe('```json\n{"a": 1}\n```'))).toMatchObject({
      passed: true,
      reason: 'Valid JSON, in a ```json block',
    });
    expect(await passes({ type: 'is_json' }, observe('```\n[1]\n```'))).toBe(true);
    expect(await passes({ type: 'is_json' }, observe('42'))).toBe(true);
  });

  it('fails prose around JSON, two blocks, other fences, and empty output', async () => {
    expect(await passes({ type: 'is_json' }, observe('Here it is: {"a": 1}'))).toBe(false);
    expect(await passes({ type: 'is_json' }, observe('```json\n{}\n```\n```json\n{}\n```'))).toBe(
      false,
    );
    expect(await passes({ type: 'is_json' }, observe('```python\n{}\n```'))).toBe(false);
    expect(await check({ type: 'is_json' }, observe('  '))).toMatchObject({
      passed: false,
      reason: 'The output is empty',
    });
    const broken = await check({ type: 'is_json' }, observe('{"a": }'));
    expect(broken.reason).toMatch(/^Not valid JSON: /);
  });
});

describe('json_schema', () => {
  const person = {
    type: 'object',
    required: ['name', 'age'],
    properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 } },
    additionalProperties: false,
  };

  it('passes output that matches the schema, fenced or not', async () => {
    expect(
      await check({ type: 'json_schema', schema: person }, observe('{"name":"Ada","age":36}')),
    ).toMatchObject({ passed: true, reason: 'Matches the schema' });
    expect(
      await passes(
        { type: 'json_schema', schema: person },
        observe('```json\n{"name":"Ada","age":36}\n```'),
      ),
    ).toBe(true);
  });

  it('reports the first few errors, where they are', async () => {
    const result = await check(
      { type: 'json_schema', schema: person },
      observe('{"name":"","age":-1,"extra":true}'),
    );
    expect(result.passed).toBe(false);
    expect(result.reason).toMatch(/^Does not match the schema — /);
    expect(result.reason).toContain('/name');
    expect(result.reason).toContain('/age');
    expect(result.reason.split('; ').length).toBeLessThanOrEqual(3);
  });

  it('uses draft 2020-12 (prefixItems)', async () => {
    const schema = { type: 'array', prefixItems: [{ type: 'string' }], items: false };
    expect(await passes({ type: 'json_schema', schema }, observe('["a"]'))).toBe(true);
    expect(await passes({ type: 'json_schema', schema }, observe('["a", 1]'))).toBe(false);
  });

  it('fails output that is not JSON before looking at the schema', async () => {
    expect(
      (await check({ type: 'json_schema', schema: person }, observe('Ada, 36'))).reason,
    ).toMatch(/^Not valid JSON: .*, so the schema cannot be checked$/);
  });

  it('checks `pattern` with RE2, so a backtracking pattern returns', async () => {
    const schema = { type: 'string', pattern: '^(a+)+$' };
    const long = JSON.stringify(`${'a'.repeat(30_000)}!`);
    const result = await check({ type: 'json_schema', schema }, observe(long));
    expect(result.passed).toBe(false);
    expect(result.reason).toContain('does not match the pattern /^(a+)+$/');
    expect(await passes({ type: 'json_schema', schema }, observe('"aaa"'))).toBe(true);
    // Beside a format of its own, and inside properties.
    const nested = {
      type: 'object',
      properties: { id: { type: 'string', format: 'uuid', pattern: '^0' } },
    };
    expect(
      await passes(
        { type: 'json_schema', schema: nested },
        observe('{"id":"0b6f5a7e-3f0c-4b8e-9a53-2d8a2a5f6c11"}'),
      ),
    ).toBe(true);
    expect(
      await passes(
        { type: 'json_schema', schema: nested },
        observe('{"id":"1b6f5a7e-3f0c-4b8e-9a53-2d8a2a5f6c11"}'),
      ),
    ).toBe(false);
  });

  it('keeps a property named "pattern" and data keywords as they are', async () => {
    const schema = {
      type: 'object',
      properties: { pattern: { const: { pattern: '(?<=x)' } } },
      required: ['pattern'],
    };
    expect(
      await passes({ type: 'json_schema', schema }, observe('{"pattern":{"pattern":"(?<=x)"}}')),
    ).toBe(true);
  });

  it('refuses patternProperties and look-around patterns with a reason', async () => {
    const pp = await check(
      { type: 'json_schema', schema: { patternProperties: { '^(a+)+$': {} } } },
      observe('{}'),
    );
    expect(pp).toMatchObject({ passed: false });
    expect(pp.reason).toMatch(/patternProperties.*not supported/);
    const look = await check(
      { type: 'json_schema', schema: { type: 'string', pattern: '(?<=a)b' } },
      observe('"ab"'),
    );
    expect(look.reason).toMatch(/^The schema’s pattern .* cannot be used\. Look-behind/);
  });

  it('fails a schema that cannot be used or recurses for ever, without throwing', async () => {
    const missingRef = await check(
      { type: 'json_schema', schema: { $ref: 'https://example.com/elsewhere.json' } },
      observe('{}'),
    );
    expect(missingRef.passed).toBe(false);
    expect(missingRef.reason).toMatch(/^The schema cannot be used: /);
    const loop = await check(
      { type: 'json_schema', schema: { $defs: { a: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' } },
      observe('{}'),
    );
    expect(loop).toMatchObject({
      passed: false,
      reason: 'The schema or the output is nested too deeply to be checked',
    });
  });

  it('fails an output nested deeper than it can check, without throwing', async () => {
    const depth = 20_000;
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const schema = { type: 'array', items: { type: 'array', items: { type: 'array' } } };
    const result = await check({ type: 'json_schema', schema }, observe(deep));
    expect(result.type).toBe('json_schema');
    expect(typeof result.passed).toBe('boolean');
  });

  it('cuts off exponential $ref recursion over a deep output', async () => {
    const schema = {
      anyOf: [
        { type: 'array', items: { $ref: '#' } },
        { type: 'array', items: { $ref: '#' } },
      ],
      not: { const: [] },
    };
    const deep = `${'['.repeat(40)}1${']'.repeat(40)}`;
    const result = await check({ type: 'json_schema', schema }, observe(deep));
    expect(result.passed).toBe(false);
  });
});

describe('length, latency and cost', () => {
  it('counts characters as a person does', async () => {
    expect(await check({ type: 'length', max: 5 }, observe('héllo'))).toMatchObject({
      passed: true,
      reason: '5 characters, within the limits',
    });
    expect(await passes({ type: 'length', max: 2 }, observe('👍👍'))).toBe(true);
    expect(await check({ type: 'length', min: 10, max: 20 }, observe('short'))).toMatchObject({
      passed: false,
      reason: '5 characters, fewer than the minimum of 10',
    });
    expect(await check({ type: 'length', max: 3 }, observe('long'))).toMatchObject({
      passed: false,
      reason: '4 characters, more than the maximum of 3',
    });
  });

  it('checks latency, and fails when none was recorded', async () => {
    expect(await check({ type: 'latency', max_ms: 1000 }, observe('x'))).toMatchObject({
      passed: true,
      reason: 'Took 800 ms within the limit of 1,000 ms',
    });
    expect(await passes({ type: 'latency', max_ms: 500 }, observe('x'))).toBe(false);
    expect(
      await check({ type: 'latency', max_ms: 500 }, observe('x', { latencyMs: null })),
    ).toMatchObject({ passed: false, reason: 'No latency recorded' });
  });

  it('checks cost, and fails when the model has no known price', async () => {
    expect(await check({ type: 'cost', max_usd: 0.001 }, observe('x'))).toMatchObject({
      passed: true,
      reason: 'Cost $0.0004, within the limit of $0.001',
    });
    expect(await passes({ type: 'cost', max_usd: 0.0001 }, observe('x'))).toBe(false);
    expect(
      await check({ type: 'cost', max_usd: 1 }, observe('x', { costUsd: null })),
    ).toMatchObject({
      passed: false,
      reason: 'No price known for this model, so the cost cannot be checked',
    });
  });
});

describe('checkAssertions', () => {
  it('gives every result in order, the judge’s from the judge it is given', async () => {
    const seen: string[] = [];
    const judge: Judge = (a, o) => {
      seen.push(`${a.rubric} / ${o.output}`);
      return Promise.resolve({ type: 'judge', passed: true, reason: 'Polite', score: 0.9 });
    };
    const assertions: Assertion[] = [
      { type: 'contains', values: ['Paris'], mode: 'any', ignore_case: true },
      assertionSchema.parse({ type: 'judge', rubric: 'Is polite', provider: 'openai' }),
      { type: 'is_json' },
    ];
    const results = await checkAssertions(assertions, observe('Paris, please'), judge);
    expect(results.map((r) => [r.type, r.passed, r.score])).toEqual([
      ['contains', true, null],
      ['judge', true, 0.9],
      ['is_json', false, null],
    ]);
    expect(seen).toEqual(['Is polite / Paris, please']);
  });
});

describe('describeAssertion', () => {
  it('labels each kind of assertion in a few words', () => {
    const label = (a: unknown) => describeAssertion(assertionSchema.parse(a));
    expect(label({ type: 'contains', values: ['Paris'] })).toBe('contains "Paris"');
    expect(label({ type: 'contains', values: ['a', 'b'], mode: 'all' })).toBe(
      'contains all of "a", "b"',
    );
    expect(label({ type: 'not_contains', values: ['sorry'] })).toBe('does not contain "sorry"');
    expect(label({ type: 'regex', pattern: '^\\d+$', flags: 'i' })).toBe('regex /^\\d+$/i');
    expect(label({ type: 'equals' })).toBe('equals the expected output');
    expect(label({ type: 'equals', value: 'Paris', ignore_case: true })).toBe(
      'equals "Paris" (any case)',
    );
    expect(label({ type: 'is_json' })).toBe('is JSON');
    expect(label({ type: 'json_schema', schema: {} })).toBe('matches a JSON schema');
    expect(label({ type: 'length', min: 1, max: 10 })).toBe('length 1–10');
    expect(label({ type: 'length', max: 10 })).toBe('length ≤ 10');
    expect(label({ type: 'latency', max_ms: 2000 })).toBe('latency ≤ 2000 ms');
    expect(label({ type: 'cost', max_usd: 0.01 })).toBe('cost ≤ $0.01');
    expect(label({ type: 'judge', rubric: 'is  polite\n', provider: 'openai' })).toBe(
      'judge: is polite',
    );
    expect(label({ type: 'judge', rubric: 'x'.repeat(100), provider: 'openai' })).toHaveLength(
      'judge: '.length + 60,
    );
  });
});
