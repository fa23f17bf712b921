import { describe, expect, it } from 'vitest';
import { adminRedirect, featuresForPath, safeRedirectPath, signInRedirect } from './routes.ts';

describe('feature contexts by path (spec §2)', () => {
  it.each([
    ['/chat', ['chat']],
    ['/chat/123', ['chat']],
    ['/chat-proxy', ['chat']],
    ['/agents', ['chat']],
    ['/agents/x', []],
    ['/agent-embed-chat', ['chat']],
    ['/scenarios', ['scenario']],
    ['/scenarios/7', ['scenario']],
    ['/scenario-proxy-plus', ['scenario']],
    ['/scenarios-cookbook', ['scenario']],
    ['/admin', ['admin']],
    ['/admin/users', ['admin']],
    ['/profile', ['admin']],
    ['/profile/x', []],
    ['/', []],
    ['/trends', []],
  ])('%s → %j', (path, expected) => {
    expect(featuresForPath(path)).toEqual(expected);
  });
});

describe('redirects', () => {
  it('sends guests to /auth with the original path encoded', () => {
    expect(signInRedirect('/chat')).toBe('/auth?redirect=true&from=%2Fchat');
    expect(adminRedirect).toBe('/auth?redirect=true&from=/admin');
  });

  it('accepts only same-origin paths as a return destination', () => {
    expect(safeRedirectPath('/chat/1')).toBe('/chat/1');
    for (const bad of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'chat',
      '',
      null,
    ]) {
      expect(safeRedirectPath(bad)).toBeNull();
    }
  });
});
