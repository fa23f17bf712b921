import { request } from '@playwright/test';
import { messages } from '../../packages/shared/src/messages.ts';
import { signInRedirect } from '../../packages/shared/src/routes.ts';
import { signUpThroughApi } from '../support/accounts.ts';
import { uniqueClientIp } from '../support/client-ip.ts';
import { baseURL } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';
import { findLinks, waitForMail } from '../support/mailbox.ts';
import { newTestUser } from '../support/users.ts';

test('a user who forgot their password resets it from the e-mailed link', async ({
  page,
  authPage,
  resetPasswordPage,
}) => {
  const user = newTestUser('reset');
  const newPassword = `${user.password}-new`;

  await test.step('an account exists, signed out in this browser', async () => {
    const elsewhere = await request.newContext({
      baseURL: baseURL(),
      extraHTTPHeaders: { 'x-forwarded-for': uniqueClientIp() },
    });
    await signUpThroughApi(elsewhere, user);
    await elsewhere.dispose();
  });

  await test.step('ask for a reset link', async () => {
    await authPage.goto();
    await authPage.requestReset(user.email);
  });

  const link = await test.step('receive the link by e-mail', async () => {
    const mail = await waitForMail({ to: user.email, subjectIncludes: 'password' }, 20_000);
    const found = findLinks(mail, `${baseURL()}/`).find((href) => href.includes('reset-password'));
    expect(found, `a reset link in the mail "${mail.subject}"`).toBeDefined();
    return found!;
  });

  await test.step('follow the link and set a new password', async () => {
    await page.goto(link);
    await expect(page).toHaveURL(
      (url) => url.pathname === '/reset-password' && !!url.searchParams.get('token'),
    );
    await resetPasswordPage.setNewPassword(newPassword);
    await expect(page).toHaveURL((url) => url.pathname !== '/reset-password');
  });

  await test.step('the old password no longer signs in', async () => {
    await page.goto(signInRedirect('/chat'));
    await authPage.signIn(user.email, user.password);
    await expect(page.getByText(messages.auth.signInFailed).first()).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === '/auth');
  });

  await test.step('the new password signs in', async () => {
    await authPage.signIn(user.email, newPassword);
    await expect(page).toHaveURL((url) => url.pathname === '/chat');
  });
});
