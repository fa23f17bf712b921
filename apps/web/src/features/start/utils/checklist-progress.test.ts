import { describe, expect, it } from 'vitest';
import type { OnboardingStep } from '@chorus/shared/api/onboarding';
import { checklistProgress } from './checklist-progress';

const step = (id: OnboardingStep['id'], done: boolean): OnboardingStep => ({
  id,
  title: id,
  description: '',
  done,
  action: { label: 'Go', href: `/${id}` },
});

describe('checklist progress', () => {
  it('counts the done steps and names the first one left as next', () => {
    const progress = checklistProgress([
      step('key', true),
      step('chat', false),
      step('prompt', true),
      step('scenario', false),
    ]);
    expect(progress).toMatchObject({ done: 2, total: 4, percent: 50, label: '2 of 4 done' });
    expect(progress.next?.id).toBe('chat');
  });

  it('has no next step once every step is done', () => {
    const progress = checklistProgress([
      step('key', true),
      step('chat', true),
      step('prompt', true),
    ]);
    expect(progress).toMatchObject({ done: 3, total: 3, percent: 100, next: null });
  });

  it('rounds the share and stays at zero for an empty list', () => {
    expect(
      checklistProgress([step('key', true), step('chat', false), step('prompt', false)]).percent,
    ).toBe(33);
    expect(checklistProgress([])).toMatchObject({ done: 0, total: 0, percent: 0, next: null });
  });
});
