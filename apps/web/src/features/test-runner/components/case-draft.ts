import {
  assertionSchema,
  createTestCaseSchema,
  type Assertion,
  type AssertionType,
  type CreateTestCase,
  type TestSetCase,
} from '@chorus/shared/api/test-runs';
import type { ProviderId } from '@chorus/shared/providers';
import { parseJsonObject, prettyJson } from '@/components/forms/json-input';

let nextKey = 0;
/** A React key for a row the user adds, stable while they edit it. */
const newKey = () => `row-${(nextKey += 1)}`;

/** One assertion as its fields are typed: numbers and lists stay text until sent. */
export type AssertionDraft = {
  key: string;
  type: AssertionType;
  /** equals: the text; empty for the case's expected output. */
  value: string;
  /** contains, not_contains: one text per line. */
  values: string;
  mode: 'any' | 'all';
  ignoreCase: boolean;
  pattern: string;
  flags: string;
  schema: string;
  min: string;
  max: string;
  maxMs: string;
  maxUsd: string;
  rubric: string;
  provider: ProviderId;
  /** '' for the provider's default model. */
  model: string;
  passScore: string;
};

export type VariableRow = { key: string; name: string; value: string };

export type CaseDraft = {
  name: string;
  input: string;
  variables: VariableRow[];
  expectedOutput: string;
  assertions: AssertionDraft[];
};

/** `name`, `input`, `variables`, `expected_output`, or `assertion-{index}`. */
export type CaseErrors = Partial<Record<string, string>>;

export const assertionErrorKey = (index: number) => `assertion-${index}`;

export const newAssertionDraft = (
  type: AssertionType,
  judge: { provider: ProviderId; model: string },
): AssertionDraft => ({
  key: newKey(),
  type,
  value: '',
  values: '',
  mode: 'any',
  // A contains check ignores case unless told; equals compares exactly unless told.
  ignoreCase: type !== 'equals',
  pattern: '',
  flags: '',
  schema: '{\n  "type": "object"\n}',
  min: '',
  max: '',
  maxMs: '',
  maxUsd: '',
  rubric: '',
  provider: judge.provider,
  model: judge.model,
  passScore: '0.7',
});

const text = (n: number | null) => (n === null ? '' : String(n));

export const assertionDraftOf = (
  assertion: Assertion,
  judge: { provider: ProviderId; model: string },
): AssertionDraft => {
  const draft = newAssertionDraft(assertion.type, judge);
  switch (assertion.type) {
    case 'equals':
      return { ...draft, value: assertion.value ?? '', ignoreCase: assertion.ignore_case };
    case 'contains':
      return {
        ...draft,
        values: assertion.values.join('\n'),
        mode: assertion.mode,
        ignoreCase: assertion.ignore_case,
      };
    case 'not_contains':
      return { ...draft, values: assertion.values.join('\n'), ignoreCase: assertion.ignore_case };
    case 'regex':
      return { ...draft, pattern: assertion.pattern, flags: assertion.flags };
    case 'json_schema':
      return { ...draft, schema: prettyJson(assertion.schema) };
    case 'length':
      return { ...draft, min: text(assertion.min), max: text(assertion.max) };
    case 'latency':
      return { ...draft, maxMs: String(assertion.max_ms) };
    case 'cost':
      return { ...draft, maxUsd: String(assertion.max_usd) };
    case 'judge':
      return {
        ...draft,
        rubric: assertion.rubric,
        provider: assertion.provider,
        model: assertion.model ?? '',
        passScore: String(assertion.pass_score),
      };
    default:
      return draft;
  }
};

const lines = (value: string) =>
  value
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** A number typed in a field: null when empty, NaN when it is not one. */
const numberOf = (value: string): number | null => {
  const trimmed = value.trim();
  return trimmed === '' ? null : Number(trimmed);
};

type Checked = { assertion: Assertion; error: null } | { assertion: null; error: string };

const fail = (error: string): Checked => ({ assertion: null, error });

/** One assertion's draft read as the contract's, or what to fix. */
export const assertionOf = (draft: AssertionDraft): Checked => {
  let candidate: unknown;
  switch (draft.type) {
    case 'equals':
      candidate = {
        type: 'equals',
        value: draft.value === '' ? null : draft.value,
        ignore_case: draft.ignoreCase,
      };
      break;
    case 'contains':
      candidate = {
        type: 'contains',
        values: lines(draft.values),
        mode: draft.mode,
        ignore_case: draft.ignoreCase,
      };
      break;
    case 'not_contains':
      candidate = {
        type: 'not_contains',
        values: lines(draft.values),
        ignore_case: draft.ignoreCase,
      };
      break;
    case 'regex':
      candidate = { type: 'regex', pattern: draft.pattern, flags: draft.flags };
      break;
    case 'is_json':
      candidate = { type: 'is_json' };
      break;
    case 'json_schema': {
      const parsed = parseJsonObject(draft.schema, 'The schema');
      if (parsed.error !== null) return fail(parsed.error);
      candidate = { type: 'json_schema', schema: parsed.value };
      break;
    }
    case 'length': {
      const min = numberOf(draft.min);
      const max = numberOf(draft.max);
      if (Number.isNaN(min) || Number.isNaN(max)) return fail('The lengths must be whole numbers');
      candidate = { type: 'length', min, max };
      break;
    }
    case 'latency': {
      const maxMs = numberOf(draft.maxMs);
      if (maxMs === null || Number.isNaN(maxMs)) {
        return fail('Give the longest time an answer may take, in milliseconds');
      }
      candidate = { type: 'latency', max_ms: maxMs };
      break;
    }
    case 'cost': {
      const maxUsd = numberOf(draft.maxUsd);
      if (maxUsd === null || Number.isNaN(maxUsd)) {
        return fail('Give the most one answer may cost, in US dollars');
      }
      candidate = { type: 'cost', max_usd: maxUsd };
      break;
    }
    case 'judge': {
      const passScore = numberOf(draft.passScore);
      if (passScore === null || Number.isNaN(passScore)) {
        return fail('Give the pass score, from 0 to 1');
      }
      candidate = {
        type: 'judge',
        rubric: draft.rubric,
        provider: draft.provider,
        model: draft.model.trim() === '' ? null : draft.model.trim(),
        pass_score: passScore,
      };
      break;
    }
  }
  const parsed = assertionSchema.safeParse(candidate);
  if (parsed.success) return { assertion: parsed.data, error: null };
  return fail(parsed.error.issues[0]?.message ?? 'Check this assertion');
};

/** A live check of a schema as it is typed: null while it reads as a JSON object. */
export const schemaError = (schema: string): string | null =>
  parseJsonObject(schema, 'The schema').error;

export const caseDraftOf = (
  testCase: TestSetCase | null,
  judge: { provider: ProviderId; model: string },
): CaseDraft => ({
  name: testCase?.name ?? '',
  input: testCase?.input ?? '',
  variables: Object.entries(testCase?.variables ?? {}).map(([name, value]) => ({
    key: newKey(),
    name,
    value,
  })),
  expectedOutput: testCase?.expected_output ?? '',
  assertions: (testCase?.assertions ?? []).map((a) => assertionDraftOf(a, judge)),
});

/** Rows for the template's variables the draft does not have yet, with their defaults. */
export const withTemplateVariables = (
  rows: VariableRow[],
  template: Record<string, string>,
): VariableRow[] => {
  const names = new Set(rows.map((row) => row.name.trim()));
  const missing = Object.entries(template)
    .filter(([name]) => !names.has(name))
    .map(([name, value]) => ({ key: newKey(), name, value }));
  return missing.length === 0 ? rows : [...rows.filter((r) => r.name || r.value), ...missing];
};

export const newVariableRow = (): VariableRow => ({ key: newKey(), name: '', value: '' });

/** The case to send, checked against the contract in the browser first. */
export const caseBodyOf =
  (withInput: boolean) =>
  (draft: CaseDraft): { body: CreateTestCase | null; errors: CaseErrors | null } => {
    const errors: CaseErrors = {};
    const variables: Record<string, string> = {};
    for (const row of draft.variables) {
      const name = row.name.trim();
      if (name === '') {
        if (row.value !== '') errors.variables ??= 'Name every variable that has a value';
        continue;
      }
      if (Object.hasOwn(variables, name)) errors.variables ??= `“${name}” is named twice`;
      variables[name] = row.value;
    }
    const assertions: Assertion[] = [];
    draft.assertions.forEach((draftAssertion, index) => {
      const checked = assertionOf(draftAssertion);
      if (checked.error !== null) errors[assertionErrorKey(index)] = checked.error;
      else assertions.push(checked.assertion);
    });
    const parsed = createTestCaseSchema.safeParse({
      name: draft.name,
      input: withInput ? draft.input : '',
      variables,
      expected_output: draft.expectedOutput === '' ? null : draft.expectedOutput,
      assertions,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = String(issue.path[0]);
        const field = ['input', 'variables', 'expected_output'].includes(path)
          ? path
          : path === 'assertions' && issue.path.length === 1
            ? 'assertions'
            : 'name';
        errors[field] ??= issue.message;
      }
    }
    if (Object.keys(errors).length > 0 || !parsed.success) return { body: null, errors };
    return { body: parsed.data, errors: null };
  };
