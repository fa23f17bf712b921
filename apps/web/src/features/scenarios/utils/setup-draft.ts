import type {
  Scenario,
  ScenarioParameters,
  ScenarioRun,
  ScenarioTarget,
} from '@chorus/shared/api/scenarios';
import { fillTemplate, templateVariables } from '@chorus/shared/template';
import { isProviderId, providerIds, providers, type ProviderId } from '@chorus/shared/providers';

/** The setup of a run as its form holds it: numbers as typed, targets as picked. */
export type SetupDraft = {
  systemPrompt: string;
  userPrompt: string;
  variables: Record<string, string>;
  temperature: string;
  maxTokens: string;
  targets: ScenarioTarget[];
};

export const targetFor = (provider: ProviderId): ScenarioTarget => ({
  provider,
  model: providers[provider].defaultModel,
});

export const emptyDraft = (): SetupDraft => ({
  systemPrompt: '',
  userPrompt: '',
  variables: {},
  temperature: '',
  maxTokens: '',
  targets: [targetFor('openai'), targetFor('anthropic')],
});

/** The first provider of the catalogue not compared yet (or the first, when all are). */
export const nextTarget = (targets: ScenarioTarget[]): ScenarioTarget => {
  const used = new Set(targets.map((target) => target.provider));
  return targetFor(providerIds.find((id) => !used.has(id)) ?? 'openai');
};

const numberText = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

export const draftFromScenario = (scenario: Scenario): SetupDraft => ({
  systemPrompt: scenario.system_prompt,
  userPrompt: scenario.user_prompt,
  variables: { ...scenario.variables },
  temperature: numberText(scenario.parameters.temperature),
  maxTokens: numberText(scenario.parameters.max_tokens),
  targets: scenario.targets.map((target) => ({ ...target })),
});

/** A saved run's setup, to edit and run again (its prompt as sent, variables filled in). */
export const draftFromRun = (run: ScenarioRun): SetupDraft => ({
  systemPrompt: run.system_prompt,
  userPrompt: run.user_prompt,
  variables: { ...run.variables },
  temperature: numberText(run.parameters.temperature),
  maxTokens: numberText(run.parameters.max_tokens),
  targets: run.results.flatMap((result) =>
    isProviderId(result.provider) ? [{ provider: result.provider, model: result.model }] : [],
  ),
});

const parseNumber = (text: string): number | null => {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
};

export const draftParameters = (draft: SetupDraft): ScenarioParameters => ({
  temperature: parseNumber(draft.temperature),
  max_tokens: parseNumber(draft.maxTokens),
});

/** Only the values of variables the prompts still use, and only those filled in. */
export const draftVariables = (draft: SetupDraft): Record<string, string> =>
  Object.fromEntries(
    templateVariables(draft.systemPrompt, draft.userPrompt).flatMap(({ name }) => {
      const value = draft.variables[name]?.trim();
      return value ? [[name, value]] : [];
    }),
  );

/** The setup fields of a scenario or an inline run, as the API takes them. */
export const draftToSetup = (draft: SetupDraft) => ({
  system_prompt: draft.systemPrompt,
  user_prompt: draft.userPrompt,
  variables: draftVariables(draft),
  parameters: draftParameters(draft),
  targets: draft.targets,
});

/** The prompts as a run would send them. */
export const filledPrompts = (draft: SetupDraft) => ({
  system: fillTemplate(draft.systemPrompt, draft.variables),
  user: fillTemplate(draft.userPrompt, draft.variables),
});
