import { z } from 'zod';

/**
 * The getting-started steps, in the order /start shows them. A step whose area does not exist yet
 * on this instance is left out of the answer, never shown as done or faked.
 */
export const onboardingStepIds = [
  'key',
  'chat',
  'prompt',
  'scenario',
  'knowledge',
  'agent',
  'schedule',
] as const;
export type OnboardingStepId = (typeof onboardingStepIds)[number];

export const onboardingStepSchema = z.object({
  id: z.enum(onboardingStepIds),
  title: z.string(),
  description: z.string(),
  done: z.boolean(),
  /** The one-click way to do it: where it goes and what the button says. */
  action: z.object({ label: z.string(), href: z.string() }),
});
export type OnboardingStep = z.infer<typeof onboardingStepSchema>;

/** `GET /rest/v1/onboarding`. */
export const onboardingSchema = z.object({
  steps: z.array(onboardingStepSchema),
  completed: z.number().int(),
  total: z.number().int(),
  /** The user hid the checklist (it can be shown again). */
  dismissed: z.boolean(),
});
export type Onboarding = z.infer<typeof onboardingSchema>;

/** `PATCH /rest/v1/onboarding`: hide the checklist, or show it again. */
export const updateOnboardingSchema = z.object({ dismissed: z.boolean() }).strict();
