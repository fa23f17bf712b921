import type { AssertionType, TestSet, TestTarget } from '@chorus/shared/api/test-runs';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { formatPreciseDateTime } from '@/lib/format';
import { providerName } from '@/lib/providers';
import { subjectKindLabels } from '../api/subjects';

export const linkClass = 'text-primary underline underline-offset-4';

/** A model's name in the catalogue, or its id when the catalogue does not list it. */
export const modelName = (provider: ProviderId, model: string): string =>
  providers[provider].models.find((option) => option.value === model)?.label ?? model;

/** "OpenAI · GPT-5", as a column is headed. */
export const targetLabel = (target: TestTarget): string =>
  `${providerName(target.provider)} · ${modelName(target.provider, target.model)}`;

/** "OpenAI GPT-5", as a cell is read out. */
export const targetName = (target: TestTarget): string =>
  `${providerName(target.provider)} ${modelName(target.provider, target.model)}`;

/** "83%", a dash before anything has run. */
export const formatPassRate = (rate: number | null): string =>
  rate === null ? '—' : `${Math.round(rate * 100)}%`;

/** Green when every repeat passed, red when none did, amber in between; muted before any ran. */
export const passTone = (passed: number, runs: number): string => {
  if (runs === 0) return 'text-muted-foreground';
  if (passed === runs)
    return 'border-emerald-500/40 bg-emerald-500/10 text-emerald-800 dark:text-emerald-300';
  if (passed === 0) return 'border-destructive/40 bg-destructive/10 text-destructive';
  return 'border-amber-500/40 bg-amber-500/10 text-amber-800 dark:text-amber-300';
};

export const assertionTypeLabels: Record<AssertionType, string> = {
  equals: 'Equals',
  contains: 'Contains',
  not_contains: 'Does not contain',
  regex: 'Matches a regex',
  is_json: 'Is JSON',
  json_schema: 'Matches a JSON schema',
  length: 'Length',
  latency: 'Latency',
  cost: 'Cost',
  judge: 'LLM judge',
};

/** "Prompt: Summarise a ticket", or what to do when it was deleted. */
export const subjectText = (set: Pick<TestSet, 'subject' | 'subject_name'>): string =>
  `${subjectKindLabels[set.subject.kind]}: ${set.subject_name ?? 'subject deleted'}`;

/** The model to send for a target picked as "the provider's default". */
export const concreteModel = (provider: ProviderId, model: string): string =>
  model.trim() === '' ? providers[provider].defaultModel : model.trim();

/** "run of Jan 2, 2026, 10:00:05 AM": runs are named after their set, so their time tells them apart. */
export const runOf = (run: { created_at: string }): string =>
  `run of ${formatPreciseDateTime(run.created_at)}`;

/** "Run of Jan 2, 2026, 10:00:05 AM", at the start of a line. */
export const runTitle = (run: { created_at: string }): string => `R${runOf(run).slice(1)}`;
