import { describe, expect, it } from 'vitest';
import { helpLinks, helpPath, helpPathFor } from './help-links';

describe('helpPathFor', () => {
  it.each([
    ['keys:missing', helpLinks.keyProblems],
    ['keys:invalid_format', helpLinks.keyProblems],
    ['provider:auth', helpLinks.keyProblems],
    ['quota:exceeded', helpLinks.dailyLimit],
    ['quota:model_not_allowed', helpLinks.dailyLimit],
    ['rate_limit:exceeded', helpLinks.rateLimits],
    ['rate_limit:client', helpLinks.rateLimits],
    ['provider:rate_limited', helpLinks.rateLimits],
    ['provider:stalled', helpLinks.replyFailures],
    ['chat:server_restarting', helpLinks.replyFailures],
    ['shares:not_found', helpLinks.shareLinks],
  ])('sends %s to %s', (code, path) => {
    expect(helpPathFor(code)).toBe(path);
  });

  it('has nothing for codes no article explains, or no code at all', () => {
    expect(helpPathFor('storage:link_expired')).toBeNull();
    expect(helpPathFor('constructor')).toBeNull();
    expect(helpPathFor('')).toBeNull();
    expect(helpPathFor(undefined)).toBeNull();
  });

  it('opens an article at a heading only when asked', () => {
    expect(helpPath('prompts')).toBe('/help/prompts');
    expect(helpPath('chat', 'rate-limits')).toBe('/help/chat#rate-limits');
  });
});
