import type { OnboardingStep } from '@chorus/shared/api/onboarding';

export type ChecklistProgress = {
  done: number;
  total: number;
  /** 0 to 100, rounded. */
  percent: number;
  /** "2 of 4 done". */
  label: string;
  /** The first step not done yet, which the page offers first; null when all are done. */
  next: OnboardingStep | null;
};

/** Counted from the steps shown, so the bar always agrees with the ticks beside it. */
export const checklistProgress = (steps: readonly OnboardingStep[]): ChecklistProgress => {
  const total = steps.length;
  const done = steps.filter((step) => step.done).length;
  return {
    done,
    total,
    percent: total === 0 ? 0 : Math.round((done / total) * 100),
    label: `${done} of ${total} done`,
    next: steps.find((step) => !step.done) ?? null,
  };
};
