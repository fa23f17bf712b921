import { test as base } from '@playwright/test';
import { AppShell } from '../pages/app-shell.ts';
import { AuthPage } from '../pages/auth-page.ts';
import { ResetPasswordPage } from '../pages/reset-password-page.ts';
import { signUpThroughApi, type SignedUpUser } from './accounts.ts';
import { uniqueClientIp } from './client-ip.ts';
import { newTestUser } from './users.ts';

type Fixtures = {
  authPage: AuthPage;
  resetPasswordPage: ResetPasswordPage;
  appShell: AppShell;
  /**
   * A new plain user, signed up through the auth API; this test's browser context holds its
   * session cookie, so `page` is signed in from its first navigation.
   */
  signedInUser: SignedUpUser;
};

/**
 * Every test's browser context speaks for its own client address (X-Forwarded-For; the app
 * trusts the proxy in e2e), so the auth rate limit of one test never hits another.
 */
export const test = base.extend<Fixtures>({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': uniqueClientIp() });
  },
  authPage: async ({ page }, use) => use(new AuthPage(page)),
  resetPasswordPage: async ({ page }, use) => use(new ResetPasswordPage(page)),
  appShell: async ({ page }, use) => use(new AppShell(page)),
  signedInUser: async ({ context }, use) => {
    await use(await signUpThroughApi(context.request, newTestUser('api')));
  },
});

export { expect } from '@playwright/test';

/** Path and query of a URL, the part the app's redirects decide. */
export const pathAndSearch = (url: URL) => `${url.pathname}${url.search}`;
