// The calculator tool: mathjs's expression parser, never eval, new Function or vm (ARCHITECTURE
// §11, "User content is data, never code"). Restricted as mathjs's security guide says: an
// instance of our own whose namespace has `import`, `createUnit`, `evaluate`, `parse`,
// `simplify`, `derivative`, `resolve`, `reviver`, `compile`, `config`… replaced by functions
// that refuse, so an expression cannot reach them. We go one step further and refuse every
// function not on a list a calculator needs, and bound the size of what one call may build:
// the expression runs inside the server's own thread, so a huge matrix or a long loop would
// stall every other request.
import { tool } from 'ai';
import { all, create, type MathNode, type Matrix } from 'mathjs';
import { asSentence } from '@chorus/shared/sentences';
import { z } from 'zod';
import { toolFailure, type ToolFailure } from './tool-failure.ts';

export const calculatorLimits = {
  /** Characters in one expression. */
  expressionLength: 500,
  /** Values one function call may produce (a matrix, a range, a broadcast). */
  elements: 100_000,
  /** Rough count of arithmetic steps one function call may take (a matrix product, an inverse). */
  work: 5_000_000,
  /** The same, for all the calls of one expression together. */
  totalWork: 10_000_000,
  /** The largest n for combinations and permutations, which loop n times. */
  combinatorics: 1_000_000,
  /** Values in a result handed back: a million numbers are no answer to show anyone. */
  resultElements: 10_000,
  /** Characters of result handed back; a longer one is cut with a note. */
  resultLength: 5_000,
} as const;

/** The functions an expression may call: arithmetic, units, matrices, statistics, trigonometry. */
const allowedFunctions = new Set([
  // arithmetic
  ...['abs', 'add', 'cbrt', 'ceil', 'cube', 'divide', 'dotDivide', 'dotMultiply', 'dotPow'],
  ...['exp', 'expm1', 'fix', 'floor', 'gcd', 'hypot', 'invmod', 'lcm', 'log', 'log10', 'log1p'],
  ...['log2', 'mod', 'multiply', 'norm', 'nthRoot', 'pow', 'round', 'sign', 'sqrt', 'square'],
  ...['subtract', 'unaryMinus', 'unaryPlus', 'xgcd'],
  // bitwise and logical
  ...['bitAnd', 'bitNot', 'bitOr', 'bitXor', 'leftShift', 'rightArithShift', 'rightLogShift'],
  ...['and', 'not', 'or', 'xor', 'nullish'],
  // comparison
  ...['compare', 'compareNatural', 'deepEqual', 'equal', 'larger', 'largerEq', 'smaller'],
  ...['smallerEq', 'unequal'],
  // complex numbers
  ...['arg', 'complex', 'conj', 'im', 're'],
  // trigonometry
  ...['acos', 'acosh', 'acot', 'acoth', 'acsc', 'acsch', 'asec', 'asech', 'asin', 'asinh'],
  ...['atan', 'atan2', 'atanh', 'cos', 'cosh', 'cot', 'coth', 'csc', 'csch', 'sec', 'sech'],
  ...['sin', 'sinh', 'tan', 'tanh'],
  // statistics, probability, combinatorics
  ...['corr', 'count', 'cumsum', 'mad', 'max', 'mean', 'median', 'min', 'mode', 'prod'],
  ...['quantileSeq', 'std', 'sum', 'variance', 'combinations', 'erf', 'factorial', 'gamma'],
  ...['lgamma', 'permutations'],
  // matrices (range, index and subset serve `1:5` and `A[2, 1]`)
  ...['column', 'concat', 'cross', 'ctranspose', 'det', 'diag', 'diff', 'dot', 'flatten'],
  ...['identity', 'index', 'inv', 'kron', 'lup', 'lusolve', 'matrix', 'ones', 'qr', 'range'],
  ...['reshape', 'resize', 'row', 'size', 'sort', 'squeeze', 'subset', 'trace', 'transpose'],
  ...['zeros'],
  // numbers, units and text
  ...['bin', 'boolean', 'format', 'hex', 'isInteger', 'isNaN', 'isNegative', 'isNumeric'],
  ...['isPositive', 'isPrime', 'isZero', 'number', 'oct', 'splitUnit', 'string', 'to'],
  ...['toBest', 'typeOf', 'unit'],
]);

// The namespace's event emitter: not reachable from an expression, and `import` needs them.
const infrastructure = new Set(['on', 'off', 'once', 'emit']);

/** A refusal in the calculator's own words; anything else thrown is mathjs's about the input. */
class CalculatorRefusal extends Error {}

type Engine = {
  parse: (expression: string) => MathNode;
  format: (value: unknown, options: { precision: number }) => string;
};

const sizeOf = (value: unknown): number[] | undefined => {
  if (isMatrixValue(value)) return value.size();
  if (!Array.isArray(value)) return undefined;
  const dims = [value.length];
  let inner: unknown = value[0];
  while (Array.isArray(inner)) {
    dims.push(inner.length);
    inner = inner[0];
  }
  return dims;
};

const isMatrixValue = (value: unknown): value is Matrix =>
  typeof value === 'object' &&
  value !== null &&
  (value as { isMatrix?: boolean }).isMatrix === true;

const product = (values: number[]) => values.reduce((a, b) => a * b, 1);

/** How many values a collection holds; 1 for a scalar. */
const countOf = (value: unknown) => {
  const dims = sizeOf(value);
  return dims ? product(dims) : 1;
};

/** The plain numbers in a size argument: `zeros(2, 3)`, `zeros([2, 3])`. */
const dimensions = (args: unknown[]): number[] => {
  const first = args[0];
  const values = sizeOf(first) ? (isMatrixValue(first) ? first.toArray() : first) : args;
  return (values as unknown[]).flat(Infinity).filter((v): v is number => typeof v === 'number');
};

const tooLarge = (name: string) =>
  new CalculatorRefusal(
    `${name} would be too large a calculation for the calculator. Use smaller numbers or matrices`,
  );

// Functions whose result is at most as large as their arguments together (the second argument
// of many is a dimension or a size, not values to broadcast against).
const linearFunctions = new Set([
  ...['column', 'compareNatural', 'concat', 'corr', 'count', 'cross', 'cumsum', 'deepEqual'],
  ...['diff', 'dot', 'flatten', 'format', 'index', 'mad', 'max', 'mean', 'median', 'min'],
  ...['mode', 'norm', 'number', 'prod', 'quantileSeq', 'reshape', 'row', 'size', 'sort'],
  ...['splitUnit', 'squeeze', 'std', 'string', 'subset', 'sum', 'to', 'trace', 'transpose'],
  ...['ctranspose', 'variance'],
]);

/**
 * How many values an element-wise call yields when its arguments broadcast: [1, n] with [n, 1]
 * is n × n. Judged with the shapes aligned at either end, whichever is larger.
 */
const broadcastCount = (shapes: number[][]) => {
  const rank = Math.max(0, ...shapes.map((shape) => shape.length));
  const aligned = (atEnd: boolean) =>
    product(
      Array.from({ length: rank }, (_, i) =>
        Math.max(
          1,
          ...shapes.map((shape) => (atEnd ? shape[i - (rank - shape.length)] : shape[i]) ?? 1),
        ),
      ),
    );
  return Math.max(aligned(true), aligned(false));
};

// mathjs spends some ten times longer on a value of a matrix it maps element by element than on
// a step of a matrix product, and a hundred times longer on a value it broadcasts.
const elementCost = 10;
const broadcastCost = 100;

const isBroadcast = (shapes: number[][]) =>
  shapes.length > 1 && shapes.some((shape) => shape.join() !== shapes[0]!.join());

/** What one call would produce and cost, judged from its arguments before it runs. */
const estimate = (name: string, args: unknown[]): { elements: number; work: number } => {
  const shapes = args.map(sizeOf).filter((shape) => shape !== undefined);
  const counts = shapes.map(product);
  const sized = (n: number) => ({ elements: n, work: n });
  switch (name) {
    case 'zeros':
    case 'ones':
      return sized(product(dimensions(args)));
    case 'identity': {
      const dims = dimensions(args);
      return sized(dims.length === 1 ? dims[0]! * dims[0]! : product(dims));
    }
    case 'resize':
      return sized(product(dimensions(args.slice(1))));
    case 'range': {
      const [start, end, step = 1] = args;
      if (typeof start !== 'number' || typeof end !== 'number' || typeof step !== 'number') {
        throw new CalculatorRefusal('A range takes plain numbers, such as 1:10 or 0:0.5:3');
      }
      return sized(step === 0 ? 0 : Math.floor(Math.abs((end - start) / step)) + 1);
    }
    case 'diag': {
      const shape = sizeOf(args[0]);
      return sized(shape?.length === 1 ? shape[0]! * shape[0]! : countOf(args[0]));
    }
    case 'kron':
      return sized(product(counts));
    case 'multiply': {
      const [a, b] = args.map(sizeOf);
      if (args.length === 2 && a && b) {
        const rows = a.length === 2 ? a[0]! : 1;
        const inner = a[a.length - 1]!;
        const columns = b.length === 2 ? b[1]! : 1;
        return { elements: rows * columns, work: rows * inner * columns };
      }
      if (args.length !== 2) return sized(product(counts));
      const elements = broadcastCount(shapes);
      return {
        elements,
        work: elements * (isBroadcast(shapes) ? broadcastCost : elementCost),
      };
    }
    case 'pow': {
      if (!sizeOf(args[0])) return sized(broadcastCount(shapes));
      const exponent = typeof args[1] === 'number' ? Math.abs(args[1]) : 1;
      const cubic = countOf(args[0]) ** 1.5;
      return { elements: countOf(args[0]), work: cubic * 2 * Math.ceil(Math.log2(exponent + 2)) };
    }
    case 'det':
    case 'inv':
    case 'lup':
    case 'lusolve':
    case 'qr':
      return { elements: countOf(args[0]), work: countOf(args[0]) ** 1.5 * shapes.length };
    case 'combinations':
    case 'permutations':
      if (args.some((arg) => typeof arg === 'number' && arg > calculatorLimits.combinatorics)) {
        throw tooLarge(name);
      }
      return sized(1);
    default: {
      if (linearFunctions.has(name)) return sized(counts.reduce((a, b) => a + b, 0));
      const elements = broadcastCount(shapes);
      return {
        elements,
        work: elements * (isBroadcast(shapes) ? broadcastCost : elementCost),
      };
    }
  }
};

/** Work spent so far by the expression being evaluated (evaluation is synchronous). */
let spent = 0;

const guarded =
  (name: string, fn: (...args: unknown[]) => unknown) =>
  (...args: unknown[]) => {
    const { elements, work } = estimate(name, args);
    if (!(elements <= calculatorLimits.elements) || !(work <= calculatorLimits.work)) {
      throw tooLarge(name);
    }
    spent += work;
    if (spent > calculatorLimits.totalWork) {
      throw new CalculatorRefusal(
        'The expression as a whole is too large a calculation for the calculator. Split it into smaller ones',
      );
    }
    return fn(...args);
  };

const refused = (name: string) => () => {
  throw new CalculatorRefusal(`The function ${name} is not available in the calculator`);
};

const buildEngine = (): Engine => {
  const math = create(all!);
  // Kept before the namespace is locked down, as mathjs's guide does with `evaluate`.
  const parse = math.parse as unknown as Engine['parse'];
  const format = math.format as unknown as Engine['format'];
  const importInto = math.import;
  const namespace = math as unknown as Record<string, unknown>;
  const transforms = (math as unknown as { expression: { transform: Record<string, unknown> } })
    .expression.transform;
  // Touching every function makes mathjs build its lazily created ones now, bound to the
  // originals, so the library's own internals are not routed through the guards below.
  const names = Object.keys(namespace).filter(
    (name) =>
      /^[a-z]/.test(name) && typeof namespace[name] === 'function' && !infrastructure.has(name),
  );
  const replacements: Record<string, unknown> = {};
  for (const name of names) {
    if (name === 'typed') continue;
    if (!allowedFunctions.has(name)) {
      replacements[name] = refused(name);
      continue;
    }
    const replacement = guarded(name, namespace[name] as (...args: unknown[]) => unknown);
    // An expression calls a function's transform (1-based indices) when it has one. Transforms
    // that take unevaluated arguments (`and`, `or`: short-circuit) are dropped: the function
    // itself gives the same answer.
    const transform = transforms[name] as ((...args: unknown[]) => unknown) | undefined;
    if (transform && !(transform as { rawArgs?: boolean }).rawArgs) {
      Object.assign(replacement, { transform: guarded(name, transform) });
    }
    replacements[name] = replacement;
  }
  importInto(replacements, { override: true });
  // Last: the import above calls `typed` while it runs.
  importInto({ typed: refused('typed') }, { override: true });
  return { parse, format };
};

let engine: Engine | undefined;

/** Built on first use: creating a full mathjs instance takes a few hundred milliseconds. */
const calculatorEngine = () => (engine ??= buildEngine());

/** Refuses what would keep state between parts of an expression: `x = 5`, `f(x) = x^2`. */
const refuseAssignments = (node: MathNode) => {
  node.traverse((child) => {
    if (child.type === 'AssignmentNode' || child.type === 'FunctionAssignmentNode') {
      throw new CalculatorRefusal(
        'The calculator evaluates expressions; it does not assign variables or define functions. Write the values out instead',
      );
    }
  });
};

/** Values in a result; several results (`1 + 1; 2 + 2`) count together. */
const resultCount = (value: unknown): number => {
  const entries = (value as { isResultSet?: boolean; entries?: unknown[] }).entries;
  return (value as { isResultSet?: boolean }).isResultSet && Array.isArray(entries)
    ? entries.reduce<number>((total, entry) => total + countOf(entry), 0)
    : countOf(value);
};

export type CalculatorResult = { expression: string; result: string } | ToolFailure;

/** Evaluates one expression: `2 * (3 + 4)`, `5 cm to inch`, `det([1, 2; 3, 4])`. */
export const calculate = (expression: string): CalculatorResult => {
  const text = expression.trim();
  if (!text)
    return toolFailure('The expression is empty. Give something to calculate, such as 2 + 2.');
  if (text.length > calculatorLimits.expressionLength) {
    return toolFailure(
      `The expression is ${text.length} characters long; the calculator takes at most ${calculatorLimits.expressionLength}.`,
    );
  }
  const { parse, format } = calculatorEngine();
  try {
    const node = parse(text);
    refuseAssignments(node);
    spent = 0;
    const value = node.compile().evaluate(new Map());
    if (typeof value === 'function') {
      return toolFailure(
        'The expression names a function without calling it. Call it, such as sin(1).',
      );
    }
    if (value === undefined) {
      return toolFailure(
        'The expression has no value. Give something to calculate, such as 2 + 2.',
      );
    }
    const values = resultCount(value);
    if (values > calculatorLimits.resultElements) {
      return toolFailure(
        `The result holds ${values} values; the calculator shows at most ${calculatorLimits.resultElements}. Ask for a summary instead, such as sum(…), max(…) or size(…).`,
      );
    }
    const result = format(value, { precision: 14 });
    const limit = calculatorLimits.resultLength;
    return {
      expression: text,
      result:
        result.length > limit
          ? `${result.slice(0, limit)}… [result cut at ${limit} of ${result.length} characters]`
          : result,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof CalculatorRefusal) return toolFailure(asSentence(message));
    return toolFailure(asSentence(`The expression could not be calculated: ${message}`));
  }
};

export const calculatorTool = tool({
  description:
    'Evaluates a math expression exactly, with the mathjs syntax: arithmetic, powers and roots, ' +
    'trigonometry (sin(45 deg)), logarithms, units and conversions (5 cm to inch), complex ' +
    'numbers, matrices ([1, 2; 3, 4], det, inv, transpose), statistics (mean, median, std). ' +
    'One expression per call, no variables. Use it instead of doing arithmetic yourself.',
  inputSchema: z.object({
    expression: z
      .string()
      .min(1)
      .max(calculatorLimits.expressionLength)
      .describe('The expression, such as "(3 + 4) * 2 ^ 3" or "60 mph to km/h"'),
  }),
  execute: async ({ expression }) => calculate(expression),
});
