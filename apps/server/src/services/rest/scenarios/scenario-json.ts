import {
  scenarioLimits,
  type Scenario,
  type ScenarioRun,
  type TestCase,
} from '@chorus/shared/api/scenarios';
import { messageFor } from '@chorus/shared/error-catalogue';
import {
  scenarioPrompt,
  type ScenarioRow,
  type ScenarioRunRow,
  type TestCaseRow,
} from '../../../db/repositories/scenarios.ts';
import { ApiError } from '../../../http/errors.ts';

/** Someone else's scenario, a cookbook entry and a missing one look the same from outside. */
export const scenarioNotFound = () => new ApiError(404, 'scenarios:not_found');
export const runNotFound = () => new ApiError(404, 'scenarios:run_not_found');
export const badTarget = () => new ApiError(400, 'scenarios:bad_target');
export const tooManyScenarios = () =>
  new ApiError(
    409,
    'scenarios:too_many',
    messageFor('scenarios:too_many', { max: scenarioLimits.perUser }),
  );

/** A run still `running` this long after it started was cut off (its server stopped). */
export const RUN_STALE_MS = 10 * 60_000;

export const toScenario = (row: ScenarioRow): Scenario => ({
  id: row.id,
  title: row.title,
  description: row.description,
  category: row.category,
  system_prompt: row.system_prompt,
  user_prompt: scenarioPrompt(row),
  variables: row.variables,
  parameters: row.parameters,
  targets: row.targets as Scenario['targets'],
  last_run_at: row.last_run_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const toScenarioRun = (row: ScenarioRunRow, now = Date.now()): ScenarioRun => ({
  id: row.id,
  scenario_id: row.scenario_id,
  title: row.title,
  system_prompt: row.system_prompt,
  user_prompt: row.user_prompt,
  variables: row.variables,
  parameters: row.parameters,
  status:
    row.status === 'running' && now - row.created_at.getTime() > RUN_STALE_MS
      ? 'interrupted'
      : row.status,
  results: row.results,
  winner: row.winner,
  created_at: row.created_at.toISOString(),
  finished_at: row.finished_at?.toISOString() ?? null,
});

export const toTestCase = (row: TestCaseRow): TestCase => ({
  id: row.id,
  name: row.name,
  system_prompt: row.system_prompt,
  prompt: row.prompt,
  variables: row.variables,
  expected_output: row.expected_output,
  scenario_id: row.scenario_id,
  scenario_run_id: row.scenario_run_id,
  provider: row.provider,
  model: row.model,
  created_at: row.created_at.toISOString(),
});
