import { describe, expect, it } from 'vitest';
import { weakPasswordMessage } from '@chorus/shared/password-policy';
import { personalWords, weakPasswordReason } from './password-strength.ts';

const ownName = weakPasswordMessage('userInputs');

describe('weakPasswordReason with the person’s name and e-mail', () => {
  it('refuses a name-plus-year password, whatever the address', () => {
    expect(weakPasswordReason('janedoe2024', ['jane@example.com', 'Jane Doe'])).toBe(ownName);
    expect(weakPasswordReason('janedoe2024', ['x7@example.com', 'Jane Doe'])).toBe(ownName);
    expect(weakPasswordReason('john.smith1990', ['js@example.com', 'John Smith'])).toBe(ownName);
    expect(weakPasswordReason('johnsmith1990', ['john.smith@example.com'])).toBe(ownName);
  });

  it('lets the same passwords through for someone else, as zxcvbn alone scores them', () => {
    expect(weakPasswordReason('janedoe2024', ['ann@example.com', 'Ann Lee'])).toBeNull();
    expect(weakPasswordReason('john.smith1990', [])).toBeNull();
  });

  it('still passes a strong password that merely contains the name', () => {
    expect(weakPasswordReason('staple battery horse', ['jane@example.com', 'Jane Doe'])).toBe(null);
  });

  it('derives the words an attacker who knows the person tries first', () => {
    const words = personalWords(['John.Smith@Example.com', 'John Smith']);
    for (const word of ['john.smith', 'johnsmith', 'john_smith', 'jsmith', 'smith', 'example']) {
      expect(words).toContain(word);
    }
    // One- and two-letter pieces match inside any password and say nothing.
    const short = personalWords(['Al Li']);
    expect(short).not.toContain('al');
    expect(short).not.toContain('li');
    expect(short).toContain('alli');
  });
});
