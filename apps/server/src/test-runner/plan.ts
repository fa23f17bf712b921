import type { Assertion, TestSetCase, TestTarget } from '@chorus/shared/api/test-runs';
import { providers } from '@chorus/shared/providers';
import { caseMessage, type ResolvedSubject } from './subject.ts';

/** A case as a run's plan keeps it: what it was when the run started. */
export type PlanCase = {
  id: string;
  name: string;
  input: string;
  variables: Record<string, string>;
  expected_output: string | null;
  assertions: Assertion[];
};

/** `test_runs.plan`: the subject and cases a run started with; a resumed run runs these. */
export type RunPlan = { subject: ResolvedSubject; cases: PlanCase[] };

export const planCase = (c: TestSetCase): PlanCase => ({
  id: c.id,
  name: c.name,
  input: c.input,
  variables: c.variables,
  expected_output: c.expected_output,
  assertions: c.assertions,
});

export const planOf = (row: { plan: Record<string, unknown> }): RunPlan =>
  row.plan as unknown as RunPlan;

/** The message a case sends, as stored with its results. */
export const messageOf = (plan: RunPlan, c: PlanCase): string =>
  caseMessage(plan.subject, { input: c.input, variables: c.variables });

/** "OpenAI · gpt-4o-mini": how a target is named in mails and exports. */
export const targetLabel = (t: TestTarget) => `${providers[t.provider].name} · ${t.model}`;
