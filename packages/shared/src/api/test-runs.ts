import { z } from 'zod';
import { providerIdSchema } from './keys.ts';
import { variableValuesSchema } from './prompts.ts';

/**
 * The test runner (issue 20): test sets of cases, each with assertions, run against several
 * provider/model targets a number of times. Scoring is built-in assertions or an LLM judge —
 * never code a user wrote (ARCHITECTURE §11: promptfoo's `new Function` scorer, PF #7717).
 */
export const testRunLimits = {
  name: 80,
  description: 1_000,
  /** Test sets one user may keep. */
  setsPerUser: 200,
  /** Cases in one set (the benchmark runs 200). */
  casesPerSet: 500,
  caseName: 200,
  /** The input message of a case and its expected output, in characters. */
  input: 20_000,
  expectedOutput: 20_000,
  assertionsPerCase: 20,
  /** A contains / not-contains list. */
  containsValues: 50,
  containsValue: 2_000,
  regexPattern: 500,
  /** A JSON schema, serialised. */
  jsonSchemaChars: 20_000,
  rubric: 4_000,
  targets: 6,
  repeats: 10,
  /** cases × targets × repeats of one run. */
  callsPerRun: 6_000,
  /** Runs of one user queued or going at once. */
  activeRunsPerUser: 2,
  /** Model calls of one run to one provider at once; 429s slow it down from here. */
  concurrencyPerProvider: 4,
  /** Characters of a reply kept in a result. */
  outputChars: 50_000,
  /** An import's text (CSV or JSON). */
  importChars: 2_000_000,
  /** Personal access tokens one user may hold (live, not revoked). */
  tokensPerUser: 20,
  /** A regex assertion's match time before it counts as failed. */
  regexTimeoutMs: 100,
} as const;

const text = (label: string, max: number) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${label} is missing` : `${label} must be text`,
    })
    .max(max, `${label} is at most ${max.toLocaleString('en-US')} characters`);

const name = (label: string, max: number) =>
  text(label, max).trim().min(1, `${label} cannot be empty`);

// ---------------------------------------------------------------------------------------------
// Assertions

/** Equal to `value`, or to the case's expected output when `value` is null. */
export const equalsAssertionSchema = z.object({
  type: z.literal('equals'),
  value: text('The value', testRunLimits.expectedOutput).nullable().default(null),
  ignore_case: z.boolean().default(false),
});

export const containsAssertionSchema = z.object({
  type: z.literal('contains'),
  values: z
    .array(text('A value', testRunLimits.containsValue).min(1, 'A value cannot be empty'))
    .min(1, 'Give at least one text to look for')
    .max(testRunLimits.containsValues),
  /** `any`: one of them is enough; `all`: every one must be there. */
  mode: z.enum(['any', 'all']).default('any'),
  ignore_case: z.boolean().default(true),
});

export const notContainsAssertionSchema = z.object({
  type: z.literal('not_contains'),
  values: z
    .array(text('A value', testRunLimits.containsValue).min(1, 'A value cannot be empty'))
    .min(1, 'Give at least one text that must not appear')
    .max(testRunLimits.containsValues),
  ignore_case: z.boolean().default(true),
});

/** RE2 syntax (linear-time matching, `re2js`): no backreferences or look-around. */
export const regexAssertionSchema = z.object({
  type: z.literal('regex'),
  pattern: text('The pattern', testRunLimits.regexPattern).min(1, 'The pattern cannot be empty'),
  /** Any of i (ignore case), m (multi-line), s (dot matches newline). */
  flags: z
    .string()
    .regex(/^[ims]{0,3}$/, 'Flags are any of i, m and s')
    .default(''),
});

export const isJsonAssertionSchema = z.object({ type: z.literal('is_json') });

export const jsonSchemaAssertionSchema = z.object({
  type: z.literal('json_schema'),
  /** A JSON Schema (draft 2020-12), checked by an interpreter — never compiled to code. */
  schema: z
    .record(z.string(), z.unknown(), { error: 'The schema must be a JSON object' })
    .refine((s) => JSON.stringify(s).length <= testRunLimits.jsonSchemaChars, {
      message: 'The schema is at most 20,000 characters',
    }),
});

/** Length of the reply in characters. */
export const lengthAssertionSchema = z
  .object({
    type: z.literal('length'),
    min: z.number().int().min(0).nullable().default(null),
    max: z.number().int().min(1).nullable().default(null),
  })
  .refine((a) => a.min !== null || a.max !== null, { message: 'Give a minimum, a maximum or both' })
  .refine((a) => a.min === null || a.max === null || a.min <= a.max, {
    message: 'The minimum cannot be above the maximum',
  });

export const latencyAssertionSchema = z.object({
  type: z.literal('latency'),
  max_ms: z.number().int().min(1).max(600_000),
});

/** Estimated cost of the call (price table), in US dollars. */
export const costAssertionSchema = z.object({
  type: z.literal('cost'),
  max_usd: z.number().min(0).max(100),
});

/**
 * An LLM judge: the rubric is graded by the chosen model. The output under test is given to it
 * as quoted data, and its answer is read as structured output: pass, score 0–1, reason.
 */
export const judgeAssertionSchema = z.object({
  type: z.literal('judge'),
  rubric: name('The rubric', testRunLimits.rubric),
  provider: providerIdSchema,
  model: z.string().max(200).nullable().default(null),
  /** The judge's score at or above which the assertion passes (its own pass/fail must agree). */
  pass_score: z.number().min(0).max(1).default(0.7),
});

export const assertionSchema = z.discriminatedUnion(
  'type',
  [
    equalsAssertionSchema,
    containsAssertionSchema,
    notContainsAssertionSchema,
    regexAssertionSchema,
    isJsonAssertionSchema,
    jsonSchemaAssertionSchema,
    lengthAssertionSchema,
    latencyAssertionSchema,
    costAssertionSchema,
    judgeAssertionSchema,
  ],
  {
    error:
      'Unknown assertion type. Use equals, contains, not_contains, regex, is_json, json_schema, length, latency, cost or judge',
  },
);
export type Assertion = z.infer<typeof assertionSchema>;
export type AssertionType = Assertion['type'];
export const assertionTypes = [
  'equals',
  'contains',
  'not_contains',
  'regex',
  'is_json',
  'json_schema',
  'length',
  'latency',
  'cost',
  'judge',
] as const satisfies readonly AssertionType[];

/** One assertion's verdict on one output. `score` is the judge's (0–1), else null. */
export const assertionResultSchema = z.object({
  type: z.enum(assertionTypes),
  passed: z.boolean(),
  reason: z.string(),
  score: z.number().nullable(),
});
export type AssertionResult = z.infer<typeof assertionResultSchema>;

// ---------------------------------------------------------------------------------------------
// Test sets and cases

/**
 * What is under test. `prompt` and `scenario` give the message (their template, filled with the
 * case's variables); `custom_ai` and `agent` give the instructions, and each case's `input` is
 * the message. A target's provider/model replaces the subject's own.
 */
export const subjectKinds = ['prompt', 'scenario', 'custom_ai', 'agent'] as const;
export type SubjectKind = (typeof subjectKinds)[number];
export const subjectSchema = z.object({
  kind: z.enum(subjectKinds, { error: 'The subject is a prompt, scenario, custom AI or agent' }),
  id: z.uuid({ error: 'Pick the prompt, scenario, custom AI or agent to test' }),
});
export type Subject = z.infer<typeof subjectSchema>;

export const testTargetSchema = z.object({
  provider: providerIdSchema,
  model: z.string().trim().min(1, 'Pick a model').max(200),
});
export type TestTarget = z.infer<typeof testTargetSchema>;

export const targetsSchema = z
  .array(testTargetSchema)
  .min(1, 'Pick at least one model to run on')
  .max(testRunLimits.targets, 'A run compares at most 6 models');

export const repeatsSchema = z.number().int().min(1).max(testRunLimits.repeats);

export const createTestSetSchema = z
  .object({
    name: name('The name', testRunLimits.name),
    description: text('The description', testRunLimits.description).trim().default(''),
    subject: subjectSchema,
    /** The targets and repeats the run dialog offers first. */
    targets: z.array(testTargetSchema).max(testRunLimits.targets).default([]),
    repeats: repeatsSchema.default(1),
    /** Send the 'test run' e-mail when a run of this set ends. */
    notify: z.boolean().default(true),
  })
  .strict();
export type CreateTestSet = z.infer<typeof createTestSetSchema>;

export const updateTestSetSchema = z
  .object({
    name: name('The name', testRunLimits.name),
    description: text('The description', testRunLimits.description).trim(),
    subject: subjectSchema,
    targets: z.array(testTargetSchema).max(testRunLimits.targets),
    repeats: repeatsSchema,
    notify: z.boolean(),
  })
  .partial()
  .strict();
export type UpdateTestSet = z.infer<typeof updateTestSetSchema>;

export const testRunStatuses = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type TestRunStatus = (typeof testRunStatuses)[number];

/** A run as lists show it. */
export const testRunBriefSchema = z.object({
  id: z.string(),
  test_set_id: z.string(),
  name: z.string(),
  status: z.enum(testRunStatuses),
  done: z.number(),
  total: z.number(),
  /** Results that passed every assertion, of those done; null before the first. */
  pass_rate: z.number().nullable(),
  targets: z.array(testTargetSchema),
  repeats: z.number(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type TestRunBrief = z.infer<typeof testRunBriefSchema>;

export const testSetSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  subject: subjectSchema,
  /** The subject's name now; null when it was deleted (the set cannot run until fixed). */
  subject_name: z.string().nullable(),
  targets: z.array(testTargetSchema),
  repeats: z.number(),
  notify: z.boolean(),
  case_count: z.number(),
  last_run: testRunBriefSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TestSet = z.infer<typeof testSetSchema>;
export const testSetListSchema = z.object({ items: z.array(testSetSchema) });
export type TestSetList = z.infer<typeof testSetListSchema>;

/** A case of a set. `input` is the message for custom AI and agent subjects. */
export const testSetCaseSchema = z.object({
  id: z.string(),
  test_set_id: z.string(),
  name: z.string(),
  input: z.string(),
  variables: z.record(z.string(), z.string()),
  expected_output: z.string().nullable(),
  assertions: z.array(assertionSchema),
  position: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TestSetCase = z.infer<typeof testSetCaseSchema>;
export const testSetCaseListSchema = z.object({ items: z.array(testSetCaseSchema) });

export const createTestCaseSchema = z
  .object({
    name: name('The name', testRunLimits.caseName),
    input: text('The input', testRunLimits.input).default(''),
    variables: variableValuesSchema.default({}),
    expected_output: text('The expected output', testRunLimits.expectedOutput)
      .nullable()
      .default(null),
    assertions: z
      .array(assertionSchema)
      .max(testRunLimits.assertionsPerCase, 'A case has at most 20 assertions')
      .default([]),
  })
  .strict();
export type CreateTestCase = z.infer<typeof createTestCaseSchema>;

export const updateTestCaseSchema = z
  .object({
    name: name('The name', testRunLimits.caseName),
    input: text('The input', testRunLimits.input),
    variables: variableValuesSchema,
    expected_output: text('The expected output', testRunLimits.expectedOutput).nullable(),
    assertions: z
      .array(assertionSchema)
      .max(testRunLimits.assertionsPerCase, 'A case has at most 20 assertions'),
    /** A PostgreSQL integer. */
    position: z.number().int().min(0).max(2_147_483_647, 'The position is at most 2,147,483,647'),
  })
  .partial()
  .strict();
export type UpdateTestCase = z.infer<typeof updateTestCaseSchema>;

/**
 * Cases from a file. CSV: a header row; `name`, `input`, `expected_output` and `assertions` (a
 * JSON array) are read as such, `assert`, `assert_2`, … as shorthand assertions
 * (`contains:text`, `not-contains:text`, `regex:pattern`, `equals:text`, `is-json`,
 * `judge:rubric`, `max-length:N`, `latency:N`); every other column is a variable. JSON: an array
 * of `{ name, input?, variables?, expected_output?, assertions? }`.
 */
export const importTestCasesSchema = z
  .object({
    format: z.enum(['csv', 'json'], { error: 'The format is csv or json' }),
    content: z
      .string({ error: 'The file’s text is missing' })
      .min(1, 'The file is empty')
      .max(testRunLimits.importChars, 'The file is at most 2,000,000 characters'),
    /** The judge model `judge:` shorthand assertions use. */
    judge: testTargetSchema.optional(),
  })
  .strict();
export type ImportTestCases = z.infer<typeof importTestCasesSchema>;

export const importTestCasesResultSchema = z.object({
  imported: z.number(),
  /** Rows left out, with why (1-based, header not counted). Nothing is imported if any. */
  errors: z.array(z.object({ row: z.number(), message: z.string() })),
});
export type ImportTestCasesResult = z.infer<typeof importTestCasesResultSchema>;

/** Move saved, unfiled cases (from scenario columns) into a set. */
export const fileTestCasesSchema = z
  .object({ case_ids: z.array(z.uuid()).min(1).max(testRunLimits.casesPerSet) })
  .strict();

// ---------------------------------------------------------------------------------------------
// Runs

export const startTestRunSchema = z
  .object({
    test_set_id: z.uuid({ error: 'Give the id of the test set to run' }),
    targets: targetsSchema,
    repeats: repeatsSchema.default(1),
  })
  .strict();
export type StartTestRun = z.infer<typeof startTestRunSchema>;

/** What a run would cost, before it starts (prices from the table; judge calls included). */
export const testRunEstimateSchema = z.object({
  calls: z.number(),
  judge_calls: z.number(),
  estimated_input_tokens: z.number(),
  estimated_output_tokens: z.number(),
  /** Null when no target has a known price. */
  estimated_cost_usd: z.number().nullable(),
  /** Prompts left today on the plan, or null when it has no daily limit. */
  prompts_left_today: z.number().nullable(),
  /** Targets whose provider has no usable key for the user. */
  missing_keys: z.array(providerIdSchema),
});
export type TestRunEstimate = z.infer<typeof testRunEstimateSchema>;

/** For CI: a pipeline fails on `passed === false` or `regressions > 0`. */
export const testRunSummarySchema = z.object({
  total: z.number(),
  passed: z.number(),
  failed: z.number(),
  /** Calls that errored (provider failure, timeout) rather than answered. */
  errors: z.number(),
  pass_rate: z.number().nullable(),
  /** Every result passed every assertion. */
  all_passed: z.boolean(),
  /** The run compared with: the previous finished run of the same set, if any. */
  baseline_run_id: z.string().nullable(),
  regressions: z.number(),
  improvements: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost_usd: z.number().nullable(),
});
export type TestRunSummary = z.infer<typeof testRunSummarySchema>;

/** `GET /functions/v1/test-run/{id}`: status and progress, for the app and for CI. */
export const testRunStatusSchema = testRunBriefSchema.extend({
  source: z.enum(['app', 'token']),
  error: z.string().nullable(),
  estimated_cost_usd: z.number().nullable(),
  started_at: z.string().nullable(),
  /** Set once the run has ended. */
  summary: testRunSummarySchema.nullable(),
  /** The results page in the app. */
  url: z.string(),
  /**
   * The 'test run' e-mail sent when the run ended (spec §8's two messages); null when the set
   * does not ask for one or the run has not ended.
   */
  notification: z.object({ sent: z.boolean(), message: z.string() }).nullable().optional(),
});
export type TestRunStatusBody = z.infer<typeof testRunStatusSchema>;

export const testRunListQuerySchema = z.object({
  test_set_id: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});
export const testRunListSchema = z.object({
  items: z.array(testRunBriefSchema),
  next_cursor: z.string().nullable(),
});
export type TestRunList = z.infer<typeof testRunListSchema>;

export const cellChanges = ['regressed', 'improved', 'same', 'new'] as const;
export type CellChange = (typeof cellChanges)[number];

/** One case × target over its repeats. */
export const testCellSchema = z.object({
  case_id: z.string(),
  /** Index into the run's targets. */
  target: z.number(),
  runs: z.number(),
  passed: z.number(),
  errors: z.number(),
  pass_rate: z.number().nullable(),
  latency_p50_ms: z.number().nullable(),
  latency_p95_ms: z.number().nullable(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost_usd: z.number().nullable(),
  /** Per assertion of the case, in order: how many repeats it passed, and the last failure's reason. */
  assertions: z.array(
    z.object({
      type: z.enum(assertionTypes),
      passed: z.number(),
      total: z.number(),
      reason: z.string().nullable(),
    }),
  ),
  /** Against the compared run (`compare_to`): null when not comparing. */
  change: z.enum(cellChanges).nullable(),
  /** The compared run's pass rate for this cell. */
  previous_pass_rate: z.number().nullable(),
});
export type TestCell = z.infer<typeof testCellSchema>;

export const testTargetTotalsSchema = z.object({
  target: z.number(),
  runs: z.number(),
  passed: z.number(),
  errors: z.number(),
  pass_rate: z.number().nullable(),
  latency_p50_ms: z.number().nullable(),
  latency_p95_ms: z.number().nullable(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost_usd: z.number().nullable(),
});
export type TestTargetTotals = z.infer<typeof testTargetTotalsSchema>;

export const testRunMatrixQuerySchema = z.object({ compare_to: z.uuid().optional() });

/** `GET /rest/v1/test-runs/{id}`: the run and its matrix of cases × targets. */
export const testRunMatrixSchema = z.object({
  run: testRunStatusSchema,
  /** The cases as they were when the run started. */
  cases: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      assertions: z.array(assertionSchema),
    }),
  ),
  cells: z.array(testCellSchema),
  totals: z.array(testTargetTotalsSchema),
  compared_to: testRunBriefSchema.nullable(),
});
export type TestRunMatrix = z.infer<typeof testRunMatrixSchema>;

/** One call's full record: what a cell opens to. */
export const testResultSchema = z.object({
  id: z.string(),
  case_id: z.string(),
  target: z.number(),
  repeat: z.number(),
  /** The message sent, after the variables were filled in. */
  input: z.string(),
  output: z.string(),
  error: z.string().nullable(),
  passed: z.boolean(),
  assertions: z.array(assertionResultSchema),
  latency_ms: z.number().nullable(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost_usd: z.number().nullable(),
  created_at: z.string(),
});
export type TestResult = z.infer<typeof testResultSchema>;

export const testResultsQuerySchema = z.object({
  case_id: z.uuid(),
  target: z.coerce
    .number()
    .int()
    .min(0)
    .max(testRunLimits.targets - 1),
});
export const testResultListSchema = z.object({ items: z.array(testResultSchema) });

export const exportQuerySchema = z.object({ format: z.enum(['csv', 'json']).default('json') });

// ---------------------------------------------------------------------------------------------
// Personal access tokens (for CI)

export const accessTokenScopes = ['test_runs'] as const;
export type AccessTokenScope = (typeof accessTokenScopes)[number];

/** Tokens look like `chorus_pat_` + 43 base64url characters; only a hash is stored. */
export const accessTokenPrefix = 'chorus_pat_';

export const createAccessTokenSchema = z
  .object({
    name: name('The name', testRunLimits.name),
    /** Days until it stops working; null for never (it can always be revoked). */
    expires_in_days: z
      .union([z.literal(7), z.literal(30), z.literal(90), z.literal(365)])
      .nullable()
      .default(90),
  })
  .strict();
export type CreateAccessToken = z.infer<typeof createAccessTokenSchema>;

export const accessTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The token's first characters, to tell tokens apart (`chorus_pat_AbC…`). */
  hint: z.string(),
  scopes: z.array(z.enum(accessTokenScopes)),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type AccessToken = z.infer<typeof accessTokenSchema>;
export const accessTokenListSchema = z.object({ items: z.array(accessTokenSchema) });

/** The answer to creating a token: the only time the whole token is shown. */
export const createdAccessTokenSchema = accessTokenSchema.extend({ token: z.string() });
export type CreatedAccessToken = z.infer<typeof createdAccessTokenSchema>;
