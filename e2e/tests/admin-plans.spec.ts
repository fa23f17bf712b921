import { planMessages } from '../../packages/shared/src/messages.ts';
import { AdminUsersPage } from '../pages/admin-users-page.ts';
import { AnalyticsPage } from '../pages/analytics-page.ts';
import { ChatPage } from '../pages/chat-page.ts';
import { KeysPage } from '../pages/keys-page.ts';
import { PricingPlansPage } from '../pages/pricing-plans-page.ts';
import { expect, test } from '../support/fixtures.ts';
import { openAsSuperAdmin } from '../support/super-admin.ts';

test.describe.configure({ timeout: 90_000 });

/** The refusal, with the wait left open ("in 5 h 12 min" depends on the clock). */
const refusal = (limit: number, plan: string) =>
  new RegExp(
    planMessages
      .quotaExceeded(limit, plan, '@@')
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace('@@', '(\\d+ h )?\\d+ min|\\d+ h'),
  );

test('an admin lowers a user’s daily limit and the user’s next chat is refused with the message', async ({
  page,
  signedInUser: user,
  browser,
}) => {
  const planName = `E2E Tight ${user.id.slice(0, 8)}`;
  const chat = new ChatPage(page);

  await test.step('the signed-in user adds a key and chats once', async () => {
    const keys = new KeysPage(page);
    await keys.goto();
    await keys.saveKey('OpenAI', 'sk-e2e-quota-0001');
    await chat.goto();
    await chat.chooseProvider('OpenAI');
    await chat.send('First prompt of the day');
    await expect(chat.reply('OpenAI').first()).toBeVisible();
  });

  const admin = await openAsSuperAdmin(browser, '/admin/pricing-plans');
  const plans = new PricingPlansPage(admin);

  await test.step('the admin creates a plan and puts the user on it', async () => {
    await plans.create(planName, 10);
    const users = new AdminUsersPage(admin);
    await users.goto();
    await users.search(user.email);
    await users
      .row(user.email)
      .getByLabel(`Plan of ${user.name}`)
      .selectOption({ label: planName });
    await expect(admin.getByText(`${user.name} is now on the ${planName} plan`)).toBeVisible();
  });

  await test.step('the admin lowers the plan’s daily limit to the one prompt already used', async () => {
    await plans.goto();
    await plans.setDailyLimit(planName, 1);
  });

  await test.step('the user’s next chat is refused with the limit and when it resets', async () => {
    await chat.send('Second prompt, over the limit');
    // The refused message stays in the chat, marked "Not sent", saying why and where the plan is.
    const refused = chat.notSent('Second prompt, over the limit');
    const reason = refused.getByRole('status');
    await expect(reason).toContainText('Not sent.');
    await expect(reason).toContainText(refusal(1, planName));
    await expect(reason.getByRole('link', { name: 'See your plan' })).toBeVisible();
    // The refused text is not lost: Edit takes it back into the box.
    await refused.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(chat.composer()).toHaveValue('Second prompt, over the limit');
  });

  await test.step('the profile shows the plan and today’s usage', async () => {
    await page.goto('/profile');
    await expect(page.getByText('1 of 1 prompts used today')).toBeVisible();
    await expect(page.getByText(planMessages.paymentsNotConfigured)).toBeVisible();
  });

  await test.step('the analytics page draws its charts from the stored rows', async () => {
    const analytics = new AnalyticsPage(admin);
    await analytics.goto();
    for (const title of [
      'Daily active users',
      'Messages and AI calls per day',
      'Error rate of AI calls per day',
      'Provider share of AI calls',
    ]) {
      await expect(analytics.chart(title).locator('svg.recharts-surface').first()).toBeVisible();
    }
    await expect(
      analytics.chart('Provider share of AI calls').getByText('OpenAI').first(),
    ).toBeVisible();
    const calls = Number((await analytics.stat('AI calls').textContent())?.replace(/\D/g, ''));
    expect(calls).toBeGreaterThanOrEqual(1);
  });

  await admin.context().close();
});
