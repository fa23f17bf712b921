import { dereference, format as schemaFormats, validate, type Schema } from '@cfworker/json-schema';
import { RE2JS, RE2JSException } from 're2js';
import { testRunLimits, type Assertion, type AssertionResult } from '@chorus/shared/api/test-runs';

/**
 * Scoring of test-run outputs (issue 20). Every assertion is data checked by a small function
 * of ours; nothing a user wrote runs as code (ARCHITECTURE §11). Patterns go through RE2, schemas
 * through an interpreter, and both are bounded, so a hostile pattern or schema costs a failed
 * result, never the server's time.
 */

/** One call's answer as the assertions see it. */
export type Observation = {
  /** The message sent. */
  input: string;
  output: string;
  /** The case's expected output, if it has one. */
  expectedOutput: string | null;
  latencyMs: number | null;
  /** Null when the model has no known price. */
  costUsd: number | null;
};

export type JudgeAssertion = Extract<Assertion, { type: 'judge' }>;
/** Grades one output against a rubric with a model; throws only when the run is stopped. */
export type Judge = (
  assertion: JudgeAssertion,
  observation: Observation,
) => Promise<AssertionResult>;

/** Every assertion of a case on one output, in order. Bad user patterns or schemas fail, never throw. */
export const checkAssertions = (
  assertions: Assertion[],
  observation: Observation,
  judge: Judge,
): Promise<AssertionResult[]> =>
  Promise.all(
    assertions.map((assertion) =>
      assertion.type === 'judge'
        ? judge(assertion, observation)
        : Promise.resolve(checkBuiltIn(assertion, observation)),
    ),
  );

/** A short label for an assertion, for the matrix and the exports. */
export const describeAssertion = (a: Assertion): string => {
  switch (a.type) {
    case 'equals':
      return `${a.value === null ? 'equals the expected output' : `equals ${named(a.value)}`}${a.ignore_case ? ' (any case)' : ''}`;
    case 'contains':
      return a.values.length === 1
        ? `contains ${named(a.values[0]!)}`
        : `contains ${a.mode === 'all' ? 'all' : 'any'} of ${nameds(a.values)}`;
    case 'not_contains':
      return a.values.length === 1
        ? `does not contain ${named(a.values[0]!)}`
        : `contains none of ${nameds(a.values)}`;
    case 'regex':
      return `regex /${clip(a.pattern, 60)}/${a.flags}`;
    case 'is_json':
      return 'is JSON';
    case 'json_schema':
      return 'matches a JSON schema';
    case 'length':
      return a.min !== null && a.max !== null
        ? `length ${a.min}–${a.max}`
        : a.min !== null
          ? `length ≥ ${a.min}`
          : `length ≤ ${a.max}`;
    case 'latency':
      return `latency ≤ ${a.max_ms} ms`;
    case 'cost':
      return `cost ≤ $${a.max_usd}`;
    case 'judge':
      return `judge: ${clip(a.rubric.replace(/\s+/g, ' ').trim(), 60)}`;
  }
};

type BuiltIn = Exclude<Assertion, { type: 'judge' }>;

const checkBuiltIn = (a: BuiltIn, o: Observation): AssertionResult => {
  switch (a.type) {
    case 'equals':
      return checkEquals(a, o);
    case 'contains':
      return checkContains(a, o.output);
    case 'not_contains':
      return checkNotContains(a, o.output);
    case 'regex':
      return checkRegex(a, o.output);
    case 'is_json':
      return checkIsJson(o.output);
    case 'json_schema':
      return checkJsonSchema(a, o.output);
    case 'length':
      return checkLength(a, o.output);
    case 'latency':
      return o.latencyMs === null
        ? fail('latency', 'No latency recorded')
        : verdict(
            'latency',
            o.latencyMs <= a.max_ms,
            `Took ${ms(o.latencyMs)} ${o.latencyMs <= a.max_ms ? 'within' : 'over'} the limit of ${ms(a.max_ms)}`,
          );
    case 'cost':
      return o.costUsd === null
        ? fail('cost', 'No price known for this model, so the cost cannot be checked')
        : verdict(
            'cost',
            o.costUsd <= a.max_usd,
            `Cost ${usd(o.costUsd)}, ${o.costUsd <= a.max_usd ? 'within' : 'over'} the limit of ${usd(a.max_usd)}`,
          );
  }
};

// ---------------------------------------------------------------------------------------------
// Text

const checkEquals = (a: Extract<Assertion, { type: 'equals' }>, o: Observation) => {
  const expected = a.value ?? o.expectedOutput;
  if (expected === null) return fail('equals', 'No expected output to compare with');
  const fold = (s: string) => (a.ignore_case ? s.trim().toLowerCase() : s.trim());
  const want = fold(expected);
  const got = fold(o.output);
  const what = a.value === null ? 'the expected output' : label(a.value);
  if (want === got) return pass('equals', `Equals ${what}`);
  let at = 0;
  while (at < want.length && at < got.length && want[at] === got[at]) at++;
  return fail(
    'equals',
    got === ''
      ? `The output is empty, not ${what}`
      : `Differs from ${what} from character ${(at + 1).toLocaleString('en-US')}`,
  );
};

const finder = (ignoreCase: boolean, output: string) => {
  const haystack = ignoreCase ? output.toLowerCase() : output;
  return (value: string) => haystack.includes(ignoreCase ? value.toLowerCase() : value);
};

const checkContains = (a: Extract<Assertion, { type: 'contains' }>, output: string) => {
  const has = finder(a.ignore_case, output);
  const found = a.values.filter(has);
  const missing = a.values.filter((v) => !has(v));
  if (a.mode === 'all') {
    return missing.length === 0
      ? pass(
          'contains',
          `Contains ${a.values.length === 1 ? label(a.values[0]!) : `all of ${labels(a.values)}`}`,
        )
      : fail('contains', `Missing ${labels(missing)}`);
  }
  return found.length > 0
    ? pass('contains', `Contains ${labels(found)}`)
    : fail(
        'contains',
        a.values.length === 1
          ? `Missing ${label(a.values[0]!)}`
          : `Contains none of ${labels(a.values)}`,
      );
};

const checkNotContains = (a: Extract<Assertion, { type: 'not_contains' }>, output: string) => {
  const found = a.values.filter(finder(a.ignore_case, output));
  return found.length === 0
    ? pass(
        'not_contains',
        a.values.length === 1
          ? `Does not contain ${label(a.values[0]!)}`
          : `Contains none of ${labels(a.values)}`,
      )
    : fail('not_contains', `Contains ${labels(found)}`);
};

const checkLength = (a: Extract<Assertion, { type: 'length' }>, output: string) => {
  // Characters as a person counts them (code points), not UTF-16 units.
  const length = [...output].length;
  const n = `${length.toLocaleString('en-US')} character${length === 1 ? '' : 's'}`;
  if (a.min !== null && length < a.min) {
    return fail('length', `${n}, fewer than the minimum of ${a.min.toLocaleString('en-US')}`);
  }
  if (a.max !== null && length > a.max) {
    return fail('length', `${n}, more than the maximum of ${a.max.toLocaleString('en-US')}`);
  }
  return pass('length', `${n}, within the limits`);
};

// ---------------------------------------------------------------------------------------------
// Regex

/**
 * Patterns are RE2 (`re2js`): matching time is linear in the input, with no backtracking, so a
 * pattern such as `(a+)+$` cannot hang the server. That guarantee, with the input cut to
 * `testRunLimits.outputChars`, is what bounds a match in time (the issue's "time limit"): a
 * synchronous match cannot be interrupted, and needs not be.
 */
const checkRegex = (a: Extract<Assertion, { type: 'regex' }>, output: string) => {
  const compiled = compileRe2(a.pattern, a.flags);
  if (!compiled.ok) return fail('regex', compiled.reason);
  const shown = `/${clip(a.pattern, 60)}/${a.flags}`;
  return compiled.regex.test(output.slice(0, testRunLimits.outputChars))
    ? pass('regex', `Matches ${shown}`)
    : fail('regex', `Does not match ${shown}`);
};

const re2Flags = (flags: string) =>
  (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) |
  (flags.includes('m') ? RE2JS.MULTILINE : 0) |
  (flags.includes('s') ? RE2JS.DOTALL : 0);

const compileRe2 = (
  pattern: string,
  flags = '',
): { ok: true; regex: RE2JS } | { ok: false; reason: string } => {
  // RE2's own words for these ("invalid named capture") would not tell anyone what to change.
  if (/\(\?<[=!]/.test(pattern)) {
    return {
      ok: false,
      reason:
        'Look-behind such as (?<=…) is not supported: patterns are RE2, which has no look-around',
    };
  }
  if (/\(\?[=!]/.test(pattern)) {
    return {
      ok: false,
      reason:
        'Look-ahead such as (?=…) is not supported: patterns are RE2, which has no look-around',
    };
  }
  if (/(?:^|[^\\])(?:\\\\)*\\[1-9]/.test(pattern)) {
    return {
      ok: false,
      reason: 'Backreferences such as \\1 are not supported: patterns are RE2, which has none',
    };
  }
  try {
    return { ok: true, regex: RE2JS.compile(pattern, re2Flags(flags)) };
  } catch (error) {
    const detail =
      error instanceof RE2JSException
        ? error.message.replace(/^error parsing regexp: /, '')
        : 'it cannot be read';
    return { ok: false, reason: `The pattern is not valid: ${clip(detail, 160)}` };
  }
};

// ---------------------------------------------------------------------------------------------
// JSON

/** The output as JSON: the whole of it (trimmed), or one fenced ```json block that is all of it. */
const parseJsonOutput = (
  output: string,
): { ok: true; value: unknown; fenced: boolean } | { ok: false; reason: string } => {
  const text = output.trim();
  if (text === '') return { ok: false, reason: 'The output is empty' };
  const fenced = unfence(text);
  try {
    return { ok: true, value: JSON.parse(fenced ?? text) as unknown, fenced: fenced !== null };
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : 'it cannot be read';
    return { ok: false, reason: `Not valid JSON: ${clip(detail, 160)}` };
  }
};

/** The body of a text that is exactly one ``` or ```json fence, else null. */
const unfence = (text: string): string | null => {
  if (!text.startsWith('```') || !text.endsWith('```') || text.length < 6) return null;
  const firstLineEnd = text.indexOf('\n');
  if (firstLineEnd < 0) return null;
  const info = text.slice(3, firstLineEnd).trim().toLowerCase();
  if (info !== '' && info !== 'json') return null;
  const body = text.slice(firstLineEnd + 1, -3);
  return body.includes('```') ? null : body;
};

const checkIsJson = (output: string): AssertionResult => {
  const parsed = parseJsonOutput(output);
  if (!parsed.ok) return fail('is_json', parsed.reason);
  return pass('is_json', parsed.fenced ? 'Valid JSON, in a ```json block' : 'Valid JSON');
};

/**
 * What one schema check may spend: `$ref` resolutions and time, checked at each resolution. Only
 * a schema that refers to itself can take long (exponentially, through anyOf over a deep output);
 * without `$ref` the work is bounded by the schema's size times the output's.
 */
const refBudget = 20_000;
const schemaTimeMs = 100;
const errorsShown = 3;

const tooDeep = 'The schema or the output is nested too deeply to be checked';

class OverBudget extends Error {}
class Unsupported extends Error {}

/**
 * A JSON Schema (draft 2020-12) through `@cfworker/json-schema`, an interpreter. Its `pattern`
 * keyword would run a JavaScript regex, which can backtrack for ever: patterns are checked
 * with RE2 instead, and `patternProperties` is refused. `$ref` recursion is counted, so a
 * schema that refers to itself cannot take exponential time.
 */
const checkJsonSchema = (
  a: Extract<Assertion, { type: 'json_schema' }>,
  output: string,
): AssertionResult => {
  const parsed = parseJsonOutput(output);
  if (!parsed.ok) return fail('json_schema', `${parsed.reason}, so the schema cannot be checked`);
  const patterns = new Map<string, RE2JS>();
  let schema: Schema;
  try {
    schema = safeSchema(a.schema, patterns) as Schema;
  } catch (error) {
    if (error instanceof Unsupported) return fail('json_schema', error.message);
    if (error instanceof RangeError) return fail('json_schema', tooDeep);
    throw error;
  }
  const formats = schemaFormats as Record<string, (s: string) => boolean>;
  for (const [name, regex] of patterns) formats[name] = (s) => regex.test(s);
  try {
    const lookup = budgeted(dereference(schema));
    const result = validate(parsed.value, schema, '2020-12', lookup, false);
    if (result.valid) return pass('json_schema', 'Matches the schema');
    const specific = result.errors.filter((e) => !wrapperKeywords.has(e.keyword));
    const lines = (specific.length > 0 ? specific : result.errors).map(
      (e) =>
        `${e.instanceLocation === '#' ? 'the output' : e.instanceLocation.slice(1)}: ${describeSchemaError(e.error, patterns)}`,
    );
    const shown = [...new Set(lines)].slice(0, errorsShown);
    return fail('json_schema', `Does not match the schema — ${shown.join('; ')}`);
  } catch (error) {
    if (error instanceof OverBudget) {
      return fail(
        'json_schema',
        'The schema takes too long to check: it refers to itself too often',
      );
    }
    if (error instanceof RangeError) return fail('json_schema', tooDeep);
    return fail(
      'json_schema',
      `The schema cannot be used: ${clip(error instanceof Error ? error.message.split('\n')[0]! : 'it cannot be read', 160)}`,
    );
  } finally {
    for (const name of patterns.keys()) delete formats[name];
  }
};

/** Keywords whose error only says that something beneath them failed. */
const wrapperKeywords = new Set([
  'properties',
  'items',
  'prefixItems',
  'additionalProperties',
  'allOf',
  '$ref',
  '$recursiveRef',
  '$dynamicRef',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

const describeSchemaError = (error: string, patterns: Map<string, RE2JS>) => {
  const formatName = /^String does not match format "(chorus-re2:\d+)"\.$/.exec(error)?.[1];
  const regex = formatName ? patterns.get(formatName) : undefined;
  if (regex) return clip(`does not match the pattern /${regex.pattern()}/`, 200);
  if (error === 'False boolean schema.') return 'not allowed here';
  return clip(error.replace(/\.$/, ''), 200);
};

const budgeted = (lookup: Record<string, Schema | boolean>) => {
  let spent = 0;
  const deadline = performance.now() + schemaTimeMs;
  return new Proxy(lookup, {
    get(target, key, receiver) {
      if (++spent > refBudget || performance.now() > deadline) throw new OverBudget();
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
};

/** Keywords whose value is a schema, a list of schemas or a map of them. */
const schemaKeywords = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
  'items',
  'prefixItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
]);
const schemaMapKeywords = new Set(['properties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * A copy of the schema whose every `pattern` checks through RE2 (as a format of ours, added for
 * the one synchronous validation) and that uses no JavaScript regex of the user's.
 */
const safeSchema = (node: unknown, patterns: Map<string, RE2JS>): unknown => {
  if (Array.isArray(node)) return node.map((n) => safeSchema(n, patterns));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  const extra: unknown[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'patternProperties') {
      throw new Unsupported(
        'The schema uses “patternProperties”, which is not supported here: list the properties, or check names with a regex assertion',
      );
    }
    if (key === 'pattern' && typeof value === 'string') {
      const compiled = compileRe2(value);
      if (!compiled.ok)
        throw new Unsupported(
          `The schema’s pattern /${clip(value, 60)}/ cannot be used. ${compiled.reason}`,
        );
      const name = `chorus-re2:${patterns.size}`;
      patterns.set(name, compiled.regex);
      extra.push({ format: name });
    } else if (schemaKeywords.has(key)) {
      out[key] = safeSchema(value, patterns);
    } else if (schemaMapKeywords.has(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, safeSchema(v, patterns)]),
      );
    } else {
      // Data (const, enum, default, examples) and plain keywords stay as they are.
      out[key] = value;
    }
  }
  if (extra.length > 0) out.allOf = [...((out.allOf as unknown[] | undefined) ?? []), ...extra];
  return out;
};

// ---------------------------------------------------------------------------------------------
// Words

const pass = (type: AssertionResult['type'], reason: string): AssertionResult => ({
  type,
  passed: true,
  reason,
  score: null,
});
const fail = (type: AssertionResult['type'], reason: string): AssertionResult => ({
  type,
  passed: false,
  reason,
  score: null,
});
const verdict = (type: AssertionResult['type'], passed: boolean, reason: string) =>
  passed ? pass(type, reason) : fail(type, reason);

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** A value as a label names it (plain quotes: labels go into CSV exports too). */
const named = (value: string) => `"${clip(value.replace(/\s+/g, ' '), 40)}"`;
const nameds = (values: string[]) => {
  const shown = values.slice(0, 3).map(named).join(', ');
  return values.length > 3 ? `${shown} and ${values.length - 3} more` : shown;
};

/** A value as a reason quotes it. */
const label = (value: string) => `“${clip(value.replace(/\s+/g, ' '), 40)}”`;

/** A few values, then how many more. */
const labels = (values: string[]) => {
  const shown = values.slice(0, 5).map(label).join(', ');
  return values.length > 5 ? `${shown} and ${values.length - 5} more` : shown;
};

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;

const usd = (value: number) =>
  `$${value >= 0.01 ? value.toFixed(2) : value.toPrecision(2).replace(/0+$/, '').replace(/\.$/, '')}`;
