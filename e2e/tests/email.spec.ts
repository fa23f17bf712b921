import { randomBytes } from 'node:crypto';
import { baseURL } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';
import { findLinks, waitForMail } from '../support/mailbox.ts';
import { signUpThroughApi } from '../support/accounts.ts';
import { newTestUser, uniqueEmail } from '../support/users.ts';

/** The SUPPORT_EMAIL the e2e server is started with (global-setup.ts). */
const SUPPORT = 'support@chorus.test';

test('the contact form on /help delivers the message to the support address', async ({ page }) => {
  const name = `E2E Contact ${randomBytes(4).toString('hex')}`;
  const sender = uniqueEmail('contact');

  await page.goto('/help');
  const form = page.getByRole('region', { name: 'Contact support' });
  // The form is fetched once its section comes near the screen, as a visitor scrolls down to it.
  await form.scrollIntoViewIfNeeded();
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('E-mail').fill(sender);
  await form.getByLabel('Message').fill('My chats disappeared after I signed out.');
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Thanks! Your message is on its way')).toBeVisible();

  const mail = await waitForMail({ to: SUPPORT, subjectIncludes: `Contact form: ${name}` });
  expect(mail.text).toContain('My chats disappeared after I signed out.');
  expect(mail.text).toContain(sender);
});

test('the contact form shows what is missing instead of sending', async ({ page }) => {
  await page.goto('/help');
  const form = page.getByRole('region', { name: 'Contact support' });
  // The form is fetched once its section comes near the screen, as a visitor scrolls down to it.
  await form.scrollIntoViewIfNeeded();
  await form.getByLabel('Name').fill('Someone');
  await form.getByLabel('E-mail').fill('not-an-address');
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(form.getByText('Please enter a valid e-mail address.')).toBeVisible();
  await expect(form.getByText('Please enter a message.')).toBeVisible();
});

test('a new account receives the welcome mail with its links', async ({ signedInUser: user }) => {
  const mail = await waitForMail({ to: user.email, subjectIncludes: 'Welcome to Chorus' });
  const links = findLinks(mail, `${baseURL()}/`);
  for (const path of ['/chat', '/trends', '/prompts', '/scenarios-cookbook', '/help']) {
    expect(links).toContain(`${baseURL()}${path}`);
  }
  const unsubscribe = new URL(links.find((href) => href.includes('/unsubscribe?email='))!);
  expect(unsubscribe.searchParams.get('email')).toBe(user.email);
  // Signed by the server: only the mail sent to the address can opt it out.
  expect(unsubscribe.searchParams.get('token')).toMatch(/^[\w-]{40,}$/);
});

test('after the unsubscribe link of its welcome mail an address gets no notification mail, but still its password resets', async ({
  page,
}) => {
  const user = newTestUser('unsub');

  await test.step('sign up, and follow the unsubscribe link of the welcome mail', async () => {
    await signUpThroughApi(page.request, user);
    const welcome = await waitForMail({ to: user.email, subjectIncludes: 'Welcome to Chorus' });
    const link = findLinks(welcome, `${baseURL()}/unsubscribe?`)[0]!;
    await page.goto(link);
    await expect(page.getByText(`Unsubscribe ${user.email}?`)).toBeVisible();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  });

  await test.step('a run notification is not sent', async () => {
    const res = await page.request.post('/functions/v1/send-email', {
      data: { to: user.email, subject: 'Test run: Nightly', type: 'test_run', runName: 'Nightly' },
      headers: { origin: baseURL() },
    });
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, status: 'failed' });
  });

  await test.step('a password reset still arrives, and nothing else did', async () => {
    const res = await page.request.post('/auth/v1/request-password-reset', {
      data: { email: user.email, redirectTo: '/reset-password' },
      headers: { origin: baseURL() },
    });
    expect(res.ok()).toBe(true);
    // Mail is delivered in order: once the reset is here, a welcome or notification would be too.
    await waitForMail({ to: user.email, subjectIncludes: 'Reset your Chorus password' });
    for (const subject of ['Test run']) {
      await expect(waitForMail({ to: user.email, subjectIncludes: subject }, 0)).rejects.toThrow(
        /No mail/,
      );
    }
  });
});
