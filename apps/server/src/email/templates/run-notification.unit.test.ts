import { describe, expect, it } from 'vitest';
import { emailMessages } from '@chorus/shared/email';
import { checkRunNotification, runNotificationEmail } from './run-notification.tsx';

const identity = {
  appUrl: 'https://chorus.example',
  mailFrom: 'Chorus <no-reply@chorus.example>',
  supportEmail: 'support@chorus.example',
  unsubscribeToken: () => 'token-of-the-address',
};

describe('run notification checks (spec §5)', () => {
  it.each([
    ['test_run', { to: '', runName: 'Nightly' }, emailMessages.missingData],
    ['test_run', { to: 'ann@example.com', runName: ' ' }, emailMessages.missingData],
    ['run_started', { to: 'ann@example.com' }, emailMessages.missingData],
    ['run_started', { to: 'ann@example', runName: 'Nightly' }, emailMessages.invalidFormat],
    ['test_run', { to: 'ann example.com', runName: 'Nightly' }, emailMessages.invalidFormat],
    ['run_completed', { to: 'ann@example.com', runName: 'Nightly' }, emailMessages.noResponseText],
    ['run_completed', { to: 'ann@example.com', responseText: '  ' }, emailMessages.noResponseText],
  ] as const)('refuses a %s mail with %j', (kind, fields, message) => {
    expect(() => checkRunNotification({ kind, ...fields })).toThrow(message);
  });

  it('accepts a completed mail without a run name, but with response text', () => {
    expect(() =>
      checkRunNotification({ kind: 'run_completed', to: 'ann@example.com', responseText: 'ok' }),
    ).not.toThrow();
  });

  it('renders the completed mail with its response text in both parts and an opt-out link', async () => {
    const mail = await runNotificationEmail({
      identity,
      notification: {
        kind: 'run_completed',
        to: 'ann@example.com',
        runName: 'Nightly',
        responseText: '<script>alert(1)</script> All good.',
      },
    });
    expect(mail).toMatchObject({
      subject: 'Run completed: Nightly',
      template: 'run_completed',
      respectsUnsubscribe: true,
      to: ['ann@example.com'],
    });
    expect(mail.text).toContain('<script>alert(1)</script> All good.');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('https://chorus.example/unsubscribe?email=ann%40example.com');
    expect(mail.text).toContain(`© ${new Date().getFullYear()} Chorus`);
  });
});
