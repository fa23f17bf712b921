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

  // One guest page walks every route (a full load each, and a guest has nothing to carry from
  // one to the next), a step per route, so a new browser context is not paid thirty times; each
  // route's check is soft, so one run names every route that fails.
  test('every signed-in route sends a guest to sign in and back', async ({ page }) => {
    for (const route of signedInRoutes) {
      await test.step(`a guest on ${route}`, async () => {
        const path = concrete(route);
        await page.setExtraHTTPHeaders({ 'x-forwarded-for': uniqueClientIp() });
        await page.goto(path);
        await expect
          .soft(page, `a guest on ${route}`)
          .toHaveURL((url) => pathAndSearch(url) === signInRedirect(path));
      });
    }
  });

  test(`every admin route sends a guest to ${adminRedirect}`, async ({ page }) => {
    for (const route of adminRoutes) {
      await test.step(`a guest on ${route}`, async () => {
        await page.setExtraHTTPHeaders({ 'x-forwarded-for': uniqueClientIp() });
        await page.goto(route);
        await expect
          .soft(page, `a guest on ${route}`)
          .toHaveURL((url) => pathAndSearch(url) === adminRedirect);
      });
    }
  });
});
