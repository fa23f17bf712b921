import { parse as parseCsv } from 'csv-parse/sync';
import { RE2JS } from 're2js';
import {
  createTestCaseSchema,
  testRunLimits,
  type Assertion,
  type CreateTestCase,
  type ImportTestCases,
  type TestTarget,
} from '@chorus/shared/api/test-runs';

/** A row left out of an import: 1-based, the header not counted; 0 for the file as a whole. */
export type ImportRowError = { row: number; message: string };

export type ParsedImport = { cases: CreateTestCase[]; errors: ImportRowError[] };

/** The errors an answer lists; the count says how many there were in all. */
export const listedImportErrors = 100;

/** `row 3: the assertions column is not a JSON array`, as the error catalogue's detail has it. */
export const describeImportError = (error: ImportRowError) =>
  error.row > 0 ? `row ${error.row}: ${error.message}` : error.message;

/** A zod message ("The name cannot be empty") inside a sentence ("row 2: the name …"). */
const lowerFirst = (text: string) =>
  /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;

/**
 * Why an RE2 pattern cannot be used (backreferences, look-around, bad syntax), or null. Checked
 * when a case is saved, so a run does not find out case by case.
 */
export const regexProblem = (pattern: string): string | null => {
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return `the pattern ${JSON.stringify(pattern.slice(0, 80))} is not valid RE2 (${why})`;
  }
};

/** Problems a schema cannot see in a case's assertions: regex patterns RE2 refuses. */
export const assertionProblems = (assertions: readonly Assertion[]): string[] =>
  assertions.flatMap((a) => {
    if (a.type !== 'regex') return [];
    const problem = regexProblem(a.pattern);
    return problem ? [problem] : [];
  });

const shorthandHelp =
  'use contains:text, not-contains:text, regex:pattern, equals:text, is-json, judge:rubric, max-length:N or latency:N';

/**
 * One shorthand assertion (`contains:refund`, `max-length:280`, `is-json`): the assertion as the
 * schema takes it (validated with the case), or why not.
 */
export const parseShorthand = (
  text: string,
  judge: TestTarget | undefined,
): { assertion: unknown } | { error: string } => {
  const colon = text.indexOf(':');
  const keyword = (colon === -1 ? text : text.slice(0, colon))
    .trim()
    .toLowerCase()
    .replace(/_/g, '-');
  const value = colon === -1 ? null : text.slice(colon + 1);
  const needsValue = (what: string) => ({
    error: `${keyword} needs ${what} after the colon (${keyword}:…)`,
  });
  const whole = (raw: string | null) => {
    const n = raw === null ? NaN : Number(raw.trim());
    return Number.isInteger(n) && n > 0 ? n : null;
  };
  switch (keyword) {
    case 'contains':
      return value === null || value === ''
        ? needsValue('the text to look for')
        : { assertion: { type: 'contains', values: [value] } };
    case 'not-contains':
      return value === null || value === ''
        ? needsValue('the text that must not appear')
        : { assertion: { type: 'not_contains', values: [value] } };
    case 'regex':
      return value === null || value === ''
        ? needsValue('a pattern')
        : { assertion: { type: 'regex', pattern: value } };
    case 'equals':
      // Bare `equals`: the reply must equal the case's expected output.
      return { assertion: { type: 'equals', value: value === null ? null : value } };
    case 'is-json':
      return value === null || value.trim() === ''
        ? { assertion: { type: 'is_json' } }
        : { error: 'is-json takes nothing after it' };
    case 'judge':
      if (value === null || value.trim() === '') return needsValue('a rubric');
      if (!judge) {
        return { error: 'judge: needs a judge model; pick one for the import and try again' };
      }
      return {
        assertion: { type: 'judge', rubric: value, provider: judge.provider, model: judge.model },
      };
    case 'max-length': {
      const max = whole(value);
      return max === null
        ? { error: 'max-length needs a whole number of characters (max-length:280)' }
        : { assertion: { type: 'length', max } };
    }
    case 'latency': {
      const ms = whole(value);
      return ms === null
        ? { error: 'latency needs a whole number of milliseconds (latency:2000)' }
        : { assertion: { type: 'latency', max_ms: ms } };
    }
    default:
      return {
        error: `${JSON.stringify(text.slice(0, 60))} is not an assertion shorthand; ${shorthandHelp}`,
      };
  }
};

/** The fields of one case as read from a file, before the schema has checked them. */
type RawCase = {
  name?: unknown;
  input?: unknown;
  variables?: unknown;
  expected_output?: unknown;
  assertions?: unknown;
  [other: string]: unknown;
};

/** Validates one case; its name defaults to `Case N`, its judge assertions to the chosen judge. */
const checkCase = (
  raw: RawCase,
  row: number,
  judge: TestTarget | undefined,
): { case: CreateTestCase } | { error: string } => {
  const named =
    raw.name === undefined ||
    raw.name === null ||
    (typeof raw.name === 'string' && !raw.name.trim())
      ? { ...raw, name: `Case ${row}` }
      : raw;
  if (Array.isArray(named.assertions)) {
    const assertions: unknown[] = [];
    for (const item of named.assertions as unknown[]) {
      if (typeof item === 'string') {
        const parsed = parseShorthand(item, judge);
        if ('error' in parsed) return parsed;
        assertions.push(parsed.assertion);
      } else if (
        judge &&
        item &&
        typeof item === 'object' &&
        (item as { type?: unknown }).type === 'judge' &&
        (item as { provider?: unknown }).provider === undefined
      ) {
        assertions.push({ model: judge.model, ...item, provider: judge.provider });
      } else {
        assertions.push(item);
      }
    }
    named.assertions = assertions;
  }
  const result = createTestCaseSchema.safeParse(named);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
    return { error: `${lowerFirst(issue.message)}${where}` };
  }
  const problems = assertionProblems(result.data.assertions);
  if (problems.length > 0) return { error: problems[0]! };
  return { case: result.data };
};

const fieldColumns = new Set(['name', 'input', 'expected_output', 'assertions']);
const assertColumn = /^assert(?:_\d+)?$/;

const parseCsvCases = (content: string, judge: TestTarget | undefined): ParsedImport => {
  let records: string[][];
  try {
    records = parseCsv(content, {
      bom: true,
      skip_empty_lines: true,
      // A quote inside an unquoted field (`say "hi"`) is text, as spreadsheets write it.
      relax_quotes: true,
      relax_column_count: true,
    });
  } catch (error) {
    const lines = (error as { lines?: unknown }).lines;
    const why = error instanceof Error ? error.message : String(error);
    return {
      cases: [],
      errors: [
        {
          row: typeof lines === 'number' && lines > 1 ? lines - 1 : 0,
          message: `the file is not valid CSV (${why})`,
        },
      ],
    };
  }
  const [header, ...rows] = records;
  if (!header || rows.length === 0) {
    return {
      cases: [],
      errors: [{ row: 0, message: 'the file has no rows under its header row' }],
    };
  }
  const columns = header.map((h) => h.trim());
  const keys = columns.map((c) => c.toLowerCase());
  const seen = new Set<string>();
  for (const key of keys) {
    if (key === '') continue;
    if (seen.has(key)) {
      return { cases: [], errors: [{ row: 0, message: `the header names ${key} twice` }] };
    }
    seen.add(key);
  }
  const cases: CreateTestCase[] = [];
  const errors: ImportRowError[] = [];
  rows.forEach((cells, index) => {
    const row = index + 1;
    if (cells.length > columns.length) {
      errors.push({
        row,
        message: `it has ${cells.length} fields, the header ${columns.length}`,
      });
      return;
    }
    const raw: RawCase = {};
    // No prototype: a column named `__proto__` is a variable like any other.
    const variables = Object.create(null) as Record<string, string>;
    const assertions: unknown[] = [];
    let rowError: string | null = null;
    columns.forEach((column, i) => {
      const key = keys[i]!;
      const cell = cells[i] ?? '';
      if (column === '' || rowError) return;
      if (key === 'assertions') {
        if (cell.trim() === '') return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(cell);
        } catch {
          parsed = undefined;
        }
        if (!Array.isArray(parsed)) {
          rowError = 'the assertions column is not a JSON array';
          return;
        }
        assertions.push(...(parsed as unknown[]));
      } else if (assertColumn.test(key)) {
        if (cell.trim() === '') return;
        const parsed = parseShorthand(cell, judge);
        if ('error' in parsed) rowError = `${column}: ${parsed.error}`;
        else assertions.push(parsed.assertion);
      } else if (key === 'expected_output') {
        raw.expected_output = cell === '' ? null : cell;
      } else if (fieldColumns.has(key)) {
        raw[key] = cell;
      } else if (cell !== '') {
        variables[column] = cell;
      }
    });
    if (rowError) {
      errors.push({ row, message: rowError });
      return;
    }
    raw.variables = { ...variables };
    raw.assertions = assertions;
    const checked = checkCase(raw, row, judge);
    if ('error' in checked) errors.push({ row, message: checked.error });
    else cases.push(checked.case);
  });
  return { cases, errors };
};

/** JSON variables may hold numbers and booleans; they are sent as text. */
const textVariables = (value: unknown): unknown => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(value)) {
    out[k] = typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
  }
  return { ...out };
};

const parseJsonCases = (content: string, judge: TestTarget | undefined): ParsedImport => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { cases: [], errors: [{ row: 0, message: `the file is not valid JSON (${why})` }] };
  }
  const items =
    parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as { cases?: unknown }).cases
      : parsed;
  if (!Array.isArray(items)) {
    return {
      cases: [],
      errors: [{ row: 0, message: 'the file is not a JSON array of cases' }],
    };
  }
  if (items.length === 0) {
    return { cases: [], errors: [{ row: 0, message: 'the file holds no cases' }] };
  }
  const cases: CreateTestCase[] = [];
  const errors: ImportRowError[] = [];
  items.forEach((item: unknown, index) => {
    const row = index + 1;
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      errors.push({ row, message: 'a case must be a JSON object' });
      return;
    }
    const raw = { ...(item as RawCase) };
    if ('variables' in raw) raw.variables = textVariables(raw.variables);
    const checked = checkCase(raw, row, judge);
    if ('error' in checked) errors.push({ row, message: checked.error });
    else cases.push(checked.case);
  });
  return { cases, errors };
};

/**
 * The cases of a CSV or JSON file (the format `importTestCasesSchema` describes), each checked
 * as a hand-made case would be, and the rows that failed. Nothing is run or evaluated: cells are
 * text, assertions are data.
 */
export const parseTestCaseImport = (input: ImportTestCases): ParsedImport => {
  const parsed =
    input.format === 'csv'
      ? parseCsvCases(input.content, input.judge)
      : parseJsonCases(input.content, input.judge);
  if (parsed.errors.length === 0 && parsed.cases.length > testRunLimits.casesPerSet) {
    return {
      cases: [],
      errors: [
        {
          row: 0,
          message: `the file holds ${parsed.cases.length} cases, and a set holds at most ${testRunLimits.casesPerSet}`,
        },
      ],
    };
  }
  return parsed;
};
