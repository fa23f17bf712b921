import { describe, expect, it } from 'vitest';
import { builtinTools } from './builtin-tools.ts';
import { calculate, calculatorLimits } from './calculator.ts';

const resultOf = (expression: string) => {
  const answer = calculate(expression);
  if ('error' in answer) throw new Error(`expected a result for ${expression}: ${answer.error}`);
  return answer.result;
};

const errorOf = (expression: string) => {
  const answer = calculate(expression);
  if (!('error' in answer))
    throw new Error(`expected an error for ${expression}: ${answer.result}`);
  return answer.error;
};

describe('calculator', () => {
  it.each([
    ['2 + 3 * 4', '14'],
    ['(3 + 4) * 2 ^ 3', '56'],
    ['sqrt(16) + abs(-3)', '7'],
    ['10 % 3', '1'],
    ['5!', '120'],
    ['50%', '0.5'],
    ['1 / 3', '0.33333333333333'],
    ['round(pi, 3)', '3.142'],
    ['log(8, 2)', '3'],
    ['sin(30 deg)', '0.5'],
    ['sqrt(-4)', '2i'],
    ['12 / 0', 'Infinity'],
    ['combinations(52, 5)', '2.59896e+6'],
    ['3 > 2 and 1 < 2', 'true'],
  ])('does arithmetic: %s = %s', (expression, result) => {
    expect(resultOf(expression)).toBe(result);
  });

  it.each([
    ['5 cm to inch', '1.9685039370079 inch'],
    ['60 mi/h to km/h', '96.56064 km / h'],
    ['5 kg * 9.81 m/s^2', '49.05 N'],
    ['number(5 cm, m)', '0.05'],
  ])('converts units: %s = %s', (expression, result) => {
    expect(resultOf(expression)).toBe(result);
  });

  it.each([
    ['det([1, 2; 3, 4])', '-2'],
    ['[1, 2; 3, 4] * [5; 6]', '[[17], [39]]'],
    ['inv([1, 2; 3, 4])', '[[-2, 1], [1.5, -0.5]]'],
    ["[1, 2; 3, 4]'", '[[1, 3], [2, 4]]'],
    ['[1, 2; 3, 4][2, 1]', '3'],
    ['[1, 2, 3][2:end]', '[2, 3]'],
    ['1:5', '[1, 2, 3, 4, 5]'],
    ['sum(1:100)', '5050'],
    ['mean([2, 4, 4, 4, 5, 5, 7, 9])', '5'],
    ['size(ones(3, 4))', '[3, 4]'],
  ])('works with matrices: %s = %s', (expression, result) => {
    expect(resultOf(expression)).toBe(result);
  });

  it.each([
    'import({ pi: 3 }, { override: true })',
    'createUnit("smoot", "1.7018 m")',
    'evaluate("1")',
    'parse("1 + 1")',
    'compile("1 + 1")',
    'simplify("x + x")',
    'derivative("x^2", "x")',
    'resolve("x")',
    'reviver("a", 1)',
    'config({ number: "BigNumber" })',
    'typed("f", {})',
    'chain(3)',
    'bignumber(2)',
    'setPowerset(1:30)',
    'map([1, 2], sin)',
    'help(sin)',
  ])('refuses what mathjs’s security guide locks away: %s', (expression) => {
    expect(errorOf(expression)).toMatch(/not available in the calculator|Undefined function/);
  });

  it('leaves the shared instance as it was after a refused call', () => {
    errorOf('config({ number: "BigNumber" })');
    errorOf('import({ pi: 3 }, { override: true })');
    expect(resultOf('pi')).toBe('3.1415926535898');
    expect(resultOf('1e400')).toBe('Infinity');
  });

  it.each([
    '[].constructor',
    '"".constructor',
    '{}["__proto__"]',
    '{a: 1}.constructor',
    'sin["constructor"]',
    'sin.constructor("return process")()',
    'cos.constructor("return process")()',
    '[1].map.constructor("return process")()',
  ])('gives no way to JavaScript constructors: %s', (expression) => {
    expect(errorOf(expression)).toMatch(/^The expression could not be calculated: .+\.$/);
  });

  it('refuses assignments and function definitions, which could repeat work without end', () => {
    expect(errorOf('x = 5')).toMatch(/does not assign variables or define functions/);
    expect(errorOf('f(x) = x^2; f(3)')).toMatch(/does not assign variables or define functions/);
    expect(errorOf('a = [1, 1]; a = [a, a]')).toMatch(/does not assign variables/);
  });

  it.each([
    'zeros(100000, 100000)',
    'ones(2000, 2000)',
    'identity(2000)',
    '1:1e9',
    'range(1, 1e9)',
    'ones(1000, 1000) * ones(1000, 1000)',
    'det(ones(1000, 1000))',
    'ones(500, 500) ^ 1000000',
    'combinations(1e9, 5e8)',
    'ones(1000, 1) + ones(1, 1000)',
    'sum(reshape(1:100, [100, 1, 1]) + reshape(1:100, [1, 100, 1]) + reshape(1:100, [1, 1, 100]))',
  ])('refuses a call too large to run in the server: %s', (expression) => {
    expect(errorOf(expression)).toMatch(/too large a calculation for the calculator/);
  });

  it('refuses an expression whose calls together would take too long', () => {
    expect(resultOf('sum(mod(1:100000, 7))')).toBe('3e+5');
    expect(errorOf(Array(12).fill('sum(mod(1:100000, 7))').join(' + '))).toMatch(
      /^The expression as a whole is too large a calculation/,
    );
    expect(resultOf('1 + 1')).toBe('2');
  });

  it('refuses a result too long to show, and suggests a summary', () => {
    expect(errorOf('ones(300, 300)')).toMatch(/holds 90000 values.*such as sum/);
    expect(resultOf('sum(ones(300, 300))')).toBe('90000');
  });

  it('answers bad input with a clear error, never a throw', () => {
    expect(errorOf('1 +')).toBe(
      'The expression could not be calculated: Unexpected end of expression (char 4).',
    );
    expect(errorOf('unknownThing + 1')).toBe(
      'The expression could not be calculated: Undefined symbol unknownThing.',
    );
    expect(errorOf('"a" + 1')).toMatch(/Cannot convert "a" to a number/);
    expect(errorOf('sin')).toMatch(/names a function without calling it/);
    expect(errorOf('   ')).toMatch(/^The expression is empty/);
    expect(errorOf('1+'.repeat(300) + '1')).toBe(
      `The expression is 601 characters long; the calculator takes at most ${calculatorLimits.expressionLength}.`,
    );
  });

  it('is an AI SDK tool whose input is checked by its schema', async () => {
    const { calculator } = builtinTools();
    const schema = calculator.inputSchema as unknown as {
      safeParse: (value: unknown) => { success: boolean };
    };
    expect(schema.safeParse({ expression: '1 + 1' }).success).toBe(true);
    expect(schema.safeParse({ expression: 'x'.repeat(501) }).success).toBe(false);
    const answer = await calculator.execute!(
      { expression: '6 * 7' },
      { toolCallId: 'call-1', messages: [], context: {} },
    );
    expect(answer).toEqual({ expression: '6 * 7', result: '42' });
  });
});
