import { peopleMessages } from '../../packages/shared/src/messages.ts';
import { AdminUsersPage } from '../pages/admin-users-page.ts';
import { RequestAccessPage } from '../pages/request-access-page.ts';
import { expect, test } from '../support/fixtures.ts';
import { findLinks, waitForMail } from '../support/mailbox.ts';
import { baseURL } from '../support/env.ts';
import { openAsSuperAdmin } from '../support/super-admin.ts';
import { newTestUser } from '../support/users.ts';

// Each of the first two tests drives two browsers (the person and an admin) and a sign-up.
test.describe.configure({ timeout: 90_000 });

test('suspending a user signs out their open page within seconds and refuses sign-in', async ({
  page,
  authPage,
  signedInUser: user,
  browser,
}) => {
  // A page outside the chat: it holds no chat subscriptions, only the session's own socket.
  await page.goto('/profile');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(user.email);

  const admin = await openAsSuperAdmin(browser, '/admin/users');
  const users = new AdminUsersPage(admin);
  await users.suspend(user.email, user.name);

  // Nobody touches the open page: the server ends its session over realtime.
  await expect(page).toHaveURL((url) => url.pathname === '/auth', { timeout: 5_000 });

  await authPage.signIn(user.email, user.password);
  await expect(page.getByText(peopleMessages.accountSuspended)).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === '/auth');
  await admin.context().close();
});

test('a visitor requests access, an admin approves, and the invitation link signs them up', async ({
  page,
  authPage,
  browser,
}) => {
  const visitor = newTestUser('invited');
  const requestAccess = new RequestAccessPage(page);
  await requestAccess.goto();
  await requestAccess.request(visitor.email, 'I join the support team on Monday.');

  const admin = await openAsSuperAdmin(browser, '/admin/users');
  const users = new AdminUsersPage(admin);
  await users.openRequests();
  await expect(users.request(visitor.email)).toContainText('I join the support team on Monday.');
  await users.approve(visitor.email);

  const mail = await waitForMail({ to: visitor.email, subjectIncludes: 'invitation' });
  const [link] = findLinks(mail, `${baseURL()}/auth?invite=`);
  expect(link).toBeTruthy();
  await page.goto(link!);
  await expect(page.getByRole('tab', { name: 'Sign up', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(visitor.email);
  await authPage.signUp(visitor.name, visitor.email, visitor.password);
  await expect(page).toHaveURL((url) => url.pathname === '/chat');

  await users.openRequests();
  await admin.getByLabel('Show').selectOption({ label: 'Signed up' });
  await expect(users.request(visitor.email)).toContainText('Signed up');
  await admin.context().close();
});

test('while sign-up is by request, the auth page offers "Request access" instead of the form', async ({
  page,
}) => {
  // The mode is workspace-wide; other tests sign up in parallel, so this one only shows the
  // page's answer to it (the server's refusal is covered by the integration tests).
  await page.route('**/rest/v1/signup-mode', (route) =>
    route.fulfill({ json: { signup_mode: 'request', signup_notice: 'Ask Ada for access.' } }),
  );
  await page.goto('/auth?mode=sign-up');
  await expect(page.getByText('Sign-up on this workspace is by invitation.')).toBeVisible();
  await expect(page.getByText('Ask Ada for access.')).toBeVisible();
  await page
    .getByRole('tabpanel', { name: 'Sign up' })
    .getByRole('link', { name: 'Request access' })
    .click();
  await expect(page).toHaveURL((url) => url.pathname === '/request-access');
});
