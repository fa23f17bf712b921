import { describe, expect, it } from 'vitest';
import { hiddenContentMarker } from '@chorus/shared/email';
import { widgetBudgetEmail } from './widget-budget.tsx';

const identity = {
  appUrl: 'https://chorus.example',
  mailFrom: 'Chorus <no-reply@chorus.example>',
  supportEmail: 'support@chorus.example',
  unsubscribeToken: () => 'token-of-the-address',
};

describe('the widget budget mail', () => {
  it('names the widget and the budget, says how to raise it, and can be opted out of', async () => {
    const mail = await widgetBudgetEmail({
      identity,
      notice: {
        to: 'owner@example.com',
        widgetName: 'Help desk <b>bot</b>',
        budget: 'daily',
        tokens: 200_000,
      },
    });
    expect(mail).toMatchObject({
      to: ['owner@example.com'],
      subject: 'Your widget “Help desk <b>bot</b>” has used its daily budget',
      template: 'widget_budget',
      respectsUnsubscribe: true,
      secrets: ['token-of-the-address'],
    });
    expect(mail.text).toContain('200,000 tokens');
    expect(mail.text).toContain('Help desk <b>bot</b>');
    expect(mail.html).not.toContain('<b>bot</b>');
    expect(mail.html).toContain('https://chorus.example/agent-embed-chat');
    expect(mail.html).toContain('https://chorus.example/unsubscribe?email=owner%40example.com');
  });

  it('keeps a copy without the widget’s name for the outbox', async () => {
    const mail = await widgetBudgetEmail({
      identity,
      notice: { to: 'owner@example.com', widgetName: 'Clinic intake', budget: 'daily', tokens: 9 },
    });
    const copy = mail.withoutContent!;
    expect(copy.subject).toBe(`Your widget “${hiddenContentMarker}” has used its daily budget`);
    expect(`${copy.subject}${copy.html}${copy.text}`).not.toContain('Clinic intake');
    expect(copy.text).toContain('9 tokens');
  });

  it('tells a monthly budget apart', async () => {
    const mail = await widgetBudgetEmail({
      identity,
      notice: { to: 'owner@example.com', widgetName: 'Sales', budget: 'monthly', tokens: 5 },
    });
    expect(mail.subject).toBe('Your widget “Sales” has used its monthly budget');
    expect(mail.text).toContain('monthly token budget');
    expect(mail.text).toContain('the month ends');
  });
});
