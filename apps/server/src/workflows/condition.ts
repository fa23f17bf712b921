import { Environment, type ASTNode } from '@marcbachmann/cel-js';
import { workflowLimits } from '@chorus/shared/api/workflows';

/**
 * Workflow conditions (issue 19): CEL expressions over `inputs` and `steps` (`steps.<id>.output`),
 * parsed and evaluated by `@marcbachmann/cel-js`, never as JavaScript. CEL has no loops or
 * assignments; the parser's limits keep an expression small, and `matches` (a regular expression
 * over user data, which could backtrack for a long time) is refused.
 */
const environment = new Environment({
  unlistedVariablesAreDyn: false,
  homogeneousAggregateLiterals: false,
  limits: { maxAstNodes: 300, maxDepth: 16, maxListElements: 100, maxMapEntries: 50 },
})
  .registerVariable('inputs', 'map')
  .registerVariable('steps', 'map');

/** What an expression reads: `inputs.<name>` and `steps.<id>`. */
export type ConditionReferences = { inputs: string[]; steps: string[]; functions: string[] };

const refused = new Set(['matches']);

const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();

/** The name a `.field` or `["field"]` access on the variable `root` reads. */
const fieldOf = (node: ASTNode, root: string): string | null => {
  if (node.op === '.' || node.op === '.?') {
    const [target, field] = node.args;
    return target.op === 'id' && target.args === root ? field : null;
  }
  if (node.op === '[]' || node.op === '[?]') {
    const [target, key] = node.args;
    return target.op === 'id' && target.args === root && key.op === 'value'
      ? String(key.args)
      : null;
  }
  return null;
};

const children = (node: ASTNode): ASTNode[] => {
  const out: ASTNode[] = [];
  const add = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(add);
    else if (value && typeof value === 'object' && 'op' in value) out.push(value as ASTNode);
  };
  add(node.args);
  return out;
};

export type ParsedCondition =
  { ok: true; references: ConditionReferences } | { ok: false; reason: string };

/** Parses an expression and lists what it reads; a syntax error is a reason, never a throw. */
export const parseCondition = (expression: string): ParsedCondition => {
  if (expression.length > workflowLimits.expression) {
    return { ok: false, reason: 'it is longer than 1,000 characters' };
  }
  let ast: ASTNode;
  try {
    ast = environment.parse(expression).ast;
  } catch (error) {
    return { ok: false, reason: firstLine(error) };
  }
  const refs: ConditionReferences = { inputs: [], steps: [], functions: [] };
  const walk = (node: ASTNode) => {
    const input = fieldOf(node, 'inputs');
    const step = fieldOf(node, 'steps');
    if (input !== null) refs.inputs.push(input);
    if (step !== null) refs.steps.push(step);
    if (node.op === 'call') refs.functions.push(node.args[0]);
    if (node.op === 'rcall') refs.functions.push(node.args[0]);
    for (const child of children(node)) walk(child);
  };
  walk(ast);
  const banned = refs.functions.find((f) => refused.has(f));
  if (banned) {
    return {
      ok: false,
      reason: `${banned}() is not allowed; use contains, startsWith or endsWith`,
    };
  }
  return { ok: true, references: refs };
};

/** CEL knows no `undefined`; a value that JSON cannot hold is dropped the way JSON drops it. */
const plain = (value: unknown): unknown =>
  value === undefined ? null : (JSON.parse(JSON.stringify(value) ?? 'null') as unknown);

export type ConditionResult = { ok: true; value: boolean } | { ok: false; reason: string };

/**
 * Evaluates a condition. Anything but true or false, and any error (a field that is not there, a
 * type mismatch), is a reason a person can read.
 */
export const evaluateCondition = (
  expression: string,
  scope: { inputs: Record<string, unknown>; steps: Record<string, { output: unknown }> },
): ConditionResult => {
  const parsed = parseCondition(expression);
  if (!parsed.ok) return parsed;
  try {
    const value: unknown = environment.evaluate(expression, {
      inputs: plain(scope.inputs),
      steps: plain(scope.steps),
    });
    if (typeof value !== 'boolean') {
      return { ok: false, reason: 'The condition must answer true or false.' };
    }
    return { ok: true, value };
  } catch (error) {
    return { ok: false, reason: `The condition could not be evaluated: ${firstLine(error)}` };
  }
};
