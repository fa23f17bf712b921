import { useQuery } from '@tanstack/react-query';
import type { Prompt, PromptPage } from '@chorus/shared/api/prompts';
import type { Scenario } from '@chorus/shared/api/scenarios';
import type { Subject, SubjectKind } from '@chorus/shared/api/test-runs';
import { api } from '@/lib/api-client';
import { useCustomAis } from '@/lib/queries/custom-ais';
import { useAgentChoices, useScenarioChoices } from '@/lib/workflows/workflow-queries';

/** One thing a set can test, as the picker lists it. */
export type SubjectChoice = { id: string; name: string };

export const subjectKindLabels: Record<SubjectKind, string> = {
  prompt: 'Prompt',
  scenario: 'Scenario',
  custom_ai: 'Custom AI',
  agent: 'Agent',
};

/** Where the user makes one of each kind, when they have none yet. */
export const subjectKindPages: Record<SubjectKind, { path: string; noun: string }> = {
  prompt: { path: '/prompts', noun: 'prompts' },
  scenario: { path: '/scenarios', noun: 'scenarios' },
  custom_ai: { path: '/custom-ais', noun: 'custom AIs' },
  agent: { path: '/agents', noun: 'agents' },
};

/** Custom AIs and agents answer each case's input; prompts and scenarios fill their template. */
export const takesInput = (kind: SubjectKind) => kind === 'custom_ai' || kind === 'agent';

const usePromptChoices = (enabled: boolean) =>
  useQuery({
    queryKey: ['prompts', 'test-runner-choices'],
    queryFn: ({ signal }) => api.get<PromptPage>('/rest/v1/prompts?limit=100', signal),
    staleTime: 30_000,
    enabled,
  });

type ChoiceList = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  choices: SubjectChoice[];
};

/** The user's things of one kind to test; only that kind's list is read. */
export const useSubjectChoices = (kind: SubjectKind): ChoiceList => {
  const prompts = usePromptChoices(kind === 'prompt');
  const scenarios = useScenarioChoices(kind === 'scenario');
  const customAis = useCustomAis(kind === 'custom_ai');
  const agents = useAgentChoices(kind === 'agent');
  const of = <T>(
    query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined },
    list: (data: T) => SubjectChoice[],
  ): ChoiceList => ({
    isPending: query.isPending,
    isError: query.isError,
    error: query.error,
    choices: query.data ? list(query.data) : [],
  });
  if (kind === 'prompt') {
    return of(prompts, (d) => d.items.map((p) => ({ id: p.id, name: p.title })));
  }
  if (kind === 'scenario') {
    return of(scenarios, (d) => d.items.map((s) => ({ id: s.id, name: s.title })));
  }
  if (kind === 'custom_ai') {
    return of(customAis, (d) => d.custom_ais.map((a) => ({ id: a.id, name: a.name })));
  }
  return of(agents, (d) => d.agents.map((a) => ({ id: a.id, name: a.name })));
};

/**
 * The template variables of a prompt or scenario under test, with their defaults (a prompt's
 * required ones empty), for a new case to start from. Nothing for custom AIs and agents.
 */
export const useSubjectVariables = (subject: Subject, enabled: boolean) =>
  useQuery({
    queryKey: ['test-runner', 'subject-variables', subject.kind, subject.id],
    queryFn: async ({ signal }): Promise<Record<string, string>> => {
      if (subject.kind === 'prompt') {
        const prompt = await api.get<Prompt>(
          `/rest/v1/prompts/${encodeURIComponent(subject.id)}`,
          signal,
        );
        return Object.fromEntries(prompt.variables.map((v) => [v.name, v.default ?? '']));
      }
      const scenario = await api.get<Scenario>(
        `/rest/v1/scenarios/${encodeURIComponent(subject.id)}`,
        signal,
      );
      return scenario.variables;
    },
    enabled: enabled && !takesInput(subject.kind),
    staleTime: 30_000,
    retry: false,
  });
