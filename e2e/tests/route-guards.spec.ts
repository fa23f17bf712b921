import { randomUUID } from 'node:crypto';
import {
  adminRedirect,
  adminRoutes,
  signedInRoutes,
  signInRedirect,
} from '../../packages/shared/src/routes.ts';
import { expect, pathAndSearch, test } from '../support/fixtures.ts';
import { uniqueClientIp } from '../support/client-ip.ts';

/** A concrete path for a route pattern: every `:param` becomes a fresh id. */
const concrete = (route: string) => route.replace(/:\w+/g, () => randomUUID());

test.describe('route guards', () => {
  test('a guest on /chat lands on the sign-in page that returns to /chat', async ({ page }) => {
    await page.goto('/chat');
    await expect(page).toHaveURL((url) => url.pathname === '/auth');
    expect(new URL(page.url()).search).toBe('?redirect=true&from=%2Fchat');
  });

  test('a plain user on /admin is sent to /auth?redirect=true&from=/admin', async ({
    page,
    signedInUser: _plainUser,
  }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL((url) => pathAndSearch(url) === adminRedirect);
    expect(adminRedirect).toBe('/auth?redirect=true&from=/admin');
  });

  test.describe('every signed-in route sends a guest to sign in', () => {
    for (const route of signedInRoutes) {
      test(`a guest on ${route} is sent to sign in and back`, async ({ page }) => {
        const path = concrete(route);
        await page.setExtraHTTPHeaders({ 'x-forwarded-for': uniqueClientIp() });
        await page.goto(path);
        await expect(page).toHaveURL((url) => pathAndSearch(url) === signInRedirect(path));
      });
    }
  });

  test.describe('every admin route sends a guest to sign in for /admin', () => {
    for (const route of adminRoutes) {
      test(`a guest on ${route} is sent to ${adminRedirect}`, async ({ page }) => {
        await page.goto(route);
        await expect(page).toHaveURL((url) => pathAndSearch(url) === adminRedirect);
      });
    }
  });
});
