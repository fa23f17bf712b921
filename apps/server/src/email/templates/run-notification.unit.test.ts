import { describe, expect, it } from 'vitest';
import { emailMessages, hiddenContentMarker } from '@chorus/shared/email';
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

  it('keeps a copy without the user’s content for the outbox: no run name, reply or reason', async () => {
    const completed = await runNotificationEmail({
      identity,
      notification: {
        kind: 'run_completed',
        to: 'ann@example.com',
        runName: 'Quarterly forecast',
        responseText: 'Revenue will be 42 million.',
        provider: 'openai',
        model: 'gpt-4o',
      },
    });
    const copy = completed.withoutContent!;
    expect(copy.subject).toBe(`Run completed: ${hiddenContentMarker}`);
    for (const part of [copy.subject, copy.html, copy.text]) {
      expect(part).not.toContain('Quarterly forecast');
      expect(part).not.toContain('Revenue will be 42 million.');
    }
    expect(copy.text).toContain(hiddenContentMarker);
    // What is not theirs stays: the kind of mail, the model, the footer.
    expect(copy.text).toContain('openai · gpt-4o');
    expect(copy.html).toContain('Your run has completed');

    const failed = await runNotificationEmail({
      identity,
      notification: {
        kind: 'run_failed',
        to: 'ann@example.com',
        runName: 'Nightly digest',
        reason: 'The prompt “summarise my medical notes” was refused.',
      },
      subject: 'My own subject line',
    });
    expect(failed.withoutContent!.subject).toBe(hiddenContentMarker);
    expect(failed.withoutContent!.text).not.toContain('medical notes');
    expect(failed.withoutContent!.text).not.toContain('Nightly digest');
  });

  it('sums up a finished test run: pass rate, changes, cost, each model, and a link to its results', async () => {
    const mail = await runNotificationEmail({
      identity,
      notification: {
        kind: 'test_run',
        to: 'ann@example.com',
        runName: 'Support replies',
        testRun: {
          runId: '6f1c2b8e-0000-4000-8000-000000000001',
          status: 'done',
          error: null,
          total: 8,
          passed: 7,
          failed: 1,
          errors: 0,
          passRate: 0.875,
          compared: true,
          regressions: 1,
          improvements: 2,
          costUsd: 0.0123,
          targets: [
            { label: 'OpenAI · gpt-4o-mini', passRate: 1 },
            { label: 'Anthropic · claude-3-5-haiku-latest', passRate: 0.75 },
          ],
        },
      },
    });
    expect(mail.subject).toBe('Test run: Support replies — 88% passed, 1 regression');
    expect(mail.template).toBe('test_run');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('7 of 8 passed');
      expect(part).toContain('1 regression, 2 improvements');
      expect(part).toContain('$0.0123');
      expect(part).toContain('Anthropic · claude-3-5-haiku-latest: 75%');
      expect(part).toContain(
        'https://chorus.example/test-runner/runs/6f1c2b8e-0000-4000-8000-000000000001',
      );
    }
    expect(mail.text).not.toContain('This is a test notification');
  });

  it('says why a test run stopped, and keeps the plain test notification without a summary', async () => {
    const stopped = await runNotificationEmail({
      identity,
      notification: {
        kind: 'test_run',
        to: 'ann@example.com',
        runName: 'Nightly',
        testRun: {
          runId: 'r1',
          status: 'failed',
          error: 'You have used all 25 prompts of your plan today.',
          total: 3,
          passed: 1,
          failed: 0,
          errors: 2,
          passRate: 1 / 3,
          compared: false,
          regressions: 0,
          improvements: 0,
          costUsd: null,
          targets: [],
        },
      },
    });
    expect(stopped.subject).toBe('Test run failed: Nightly');
    expect(stopped.text).toContain('You have used all 25 prompts of your plan today.');
    expect(stopped.text).toContain('No earlier finished run of this set to compare with.');
    expect(stopped.text).toContain('Cost: unknown');

    const plain = await runNotificationEmail({
      identity,
      notification: { kind: 'test_run', to: 'ann@example.com', runName: 'Nightly' },
    });
    expect(plain.subject).toBe('Test run: Nightly');
    expect(plain.text).toContain('This is a test notification');
    expect(plain.html).toContain('https://chorus.example/test-runner');
  });
});
