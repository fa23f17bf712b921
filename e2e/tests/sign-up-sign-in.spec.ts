import { signInRedirect } from '../../packages/shared/src/routes.ts';
import { expect, pathAndSearch, test } from '../support/fixtures.ts';
import { newTestUser } from '../support/users.ts';

test('a new user signs up, signs out, and signs in again back to where they were going', async ({
  page,
  authPage,
  appShell,
}) => {
  const user = newTestUser('signup');

  await page.goto(signInRedirect('/chat'));
  await authPage.signUp(user.name, user.email, user.password);
  await expect(page).toHaveURL((url) => url.pathname === '/chat');

  await appShell.signOut();
  await expect(page).toHaveURL((url) => pathAndSearch(url) === '/');

  await page.goto('/chat');
  await expect(page).toHaveURL((url) => pathAndSearch(url) === signInRedirect('/chat'));

  await authPage.signIn(user.email, user.password);
  await expect(page).toHaveURL((url) => url.pathname === '/chat');
});
