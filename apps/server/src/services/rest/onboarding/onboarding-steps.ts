import type { Onboarding, OnboardingStep } from '@chorus/shared/api/onboarding';
import { providerIds } from '@chorus/shared/providers';
import { describeProviderKeys } from '../../../ai/keys.ts';
import {
  hasChatReply,
  hasPrompt,
  hasScenarioRun,
  OnboardingRepository,
  type OnboardingFact,
} from '../../../db/repositories/onboarding.ts';
import type { Deps } from '../../../http/app-env.ts';

type StepDefinition = Omit<OnboardingStep, 'done'> & {
  /**
   * What makes the step done: a fact about the user's rows, or `usable_key` (told by the same key
   * resolution the model-call seam uses).
   */
  doneWhen: OnboardingFact | 'usable_key';
};

/**
 * The checklist, in order. Only areas that exist are listed: the knowledge base, agents and
 * scheduled runs each add one entry here (and a fact in the onboarding repository) when they
 * arrive, never a step that cannot be done yet.
 */
const steps: StepDefinition[] = [
  {
    id: 'key',
    title: 'Add an API key',
    description:
      'Chat needs a key for at least one provider: your own, or one your admin provides.',
    action: { label: 'Add a key', href: '/copy-api-keys' },
    doneWhen: 'usable_key',
  },
  {
    id: 'chat',
    title: 'Get your first reply',
    description: 'Start a conversation and send a message to a model.',
    action: { label: 'Start a chat', href: '/chat' },
    doneWhen: hasChatReply,
  },
  {
    id: 'prompt',
    title: 'Save a prompt',
    description: 'Keep a prompt you use often, or copy one from the public library.',
    action: { label: 'Open prompts', href: '/prompts' },
    doneWhen: hasPrompt,
  },
  {
    id: 'scenario',
    title: 'Run a scenario',
    description: 'Send one prompt to several models at once and compare their answers.',
    action: { label: 'Open scenarios', href: '/scenarios' },
    doneWhen: hasScenarioRun,
  },
];

/**
 * Whether some enabled provider has a key stored for the user: their own, an admin default
 * granted to them, or the system key. Ollama needing no key does not count: nothing checks that
 * a local Ollama answers, so it would tick the step for everyone.
 */
const hasUsableKey = async (deps: Deps, userId: string): Promise<boolean> => {
  const keys = await describeProviderKeys(deps, { userId, providerIds });
  return keys.some(
    (k) => k.enabled && (k.source === 'user' || k.source === 'default' || k.source === 'system'),
  );
};

/** The user's checklist from their real data: one query, and the (cached) key resolution. */
export const onboardingOf = async (deps: Deps, userId: string): Promise<Onboarding> => {
  const factSteps = steps.filter(
    (s): s is StepDefinition & { doneWhen: OnboardingFact } => s.doneWhen !== 'usable_key',
  );
  const [facts, keyDone] = await Promise.all([
    new OnboardingRepository(deps.database.db, userId).facts(factSteps.map((s) => s.doneWhen)),
    hasUsableKey(deps, userId),
  ]);
  const answered = steps.map(({ doneWhen, ...step }): OnboardingStep => ({
    ...step,
    done:
      doneWhen === 'usable_key'
        ? keyDone
        : facts.holds[factSteps.findIndex((s) => s.id === step.id)]!,
  }));
  return {
    steps: answered,
    completed: answered.filter((s) => s.done).length,
    total: answered.length,
    dismissed: facts.dismissed,
  };
};
