import { messages } from '../../packages/shared/src/messages.ts';
import { signInRedirect } from '../../packages/shared/src/routes.ts';
import { AppShell } from '../pages/app-shell.ts';
import { RateLimitScreen, ResilienceState, type TabRole } from '../pages/resilience.ts';
import { expect, pathAndSearch, test } from '../support/fixtures.ts';

test.describe('the resilience layer', () => {
  test('a 429 shows the Rate Limit Active page with its countdown, then the app recovers', async ({
    page,
    signedInUser: user,
  }) => {
    test.setTimeout(60_000);
    await page.goto('/chat');
    await expect(page).toHaveURL((url) => url.pathname === '/chat');

    // The server's answer to one profile read is a 429 with Retry-After: 8 (the browser's
    // view of a real server limit; later reads reach the server as usual).
    await page.route(
      '**/rest/v1/profile',
      (route) =>
        route.fulfill({
          status: 429,
          headers: { 'Retry-After': '8', 'Content-Type': 'application/json' },
          body: JSON.stringify({
            error: messages.rateLimit.operation('Data', 8),
            code: 'rate_limit:exceeded',
          }),
        }),
      { times: 1 },
    );
    await page.goto('/profile');

    const screen = new RateLimitScreen(page);
    await expect(screen.heading()).toBeVisible();
    await expect(page.getByText(messages.rateLimit.operation('Data', 8))).toBeVisible();
    // Each number shows for one second, shorter than an assertion's polling can promise to
    // catch, so the countdown is read rather than waited for number by number.
    const first = await screen.secondsShown();
    expect(first).toBeGreaterThan(5);
    await expect(screen.retryNow()).toBeHidden();
    await expect.poll(() => screen.secondsShown()).toBeLessThan(first);
    // 'Retry Now' appears once 5 s or fewer remain.
    await expect(screen.retryNow()).toBeVisible();
    const left = await screen.secondsShown();
    expect(left).toBeGreaterThanOrEqual(1);
    expect(left).toBeLessThanOrEqual(5);

    // Nobody clicks: the block ends by itself and the page loads.
    await expect(screen.heading()).toBeHidden({ timeout: 8000 });
    await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(user.email);
    // After the cooldown, the recovery attempt finds everything working again.
    await expect(page.getByText(messages.rateLimit.restored)).toBeVisible({ timeout: 15_000 });
  });

  test('two tabs elect exactly one leader, and a closed leader is replaced within 6 s', async ({
    context,
  }) => {
    const first = await context.newPage();
    await first.goto('/');
    const second = await context.newPage();
    await second.goto('/');
    const tabs = [first, second].map((page) => new ResilienceState(page));

    const roles = async () =>
      (await Promise.all(tabs.map((tab) => tab.tabRole()))).sort() as (TabRole | null)[];
    await expect.poll(roles, { timeout: 10_000 }).toEqual(['follower', 'leader']);

    const leaderIndex = (await tabs[0]!.tabRole()) === 'leader' ? 0 : 1;
    const leaderPage = [first, second][leaderIndex]!;
    const follower = tabs[1 - leaderIndex]!;
    await leaderPage.close();
    await follower.waitForRole('leader', 6000);
  });

  test('signing out in one tab signs out the other', async ({
    page,
    context,
    signedInUser: _signedIn,
  }) => {
    await page.goto('/chat');
    await expect(page).toHaveURL((url) => url.pathname === '/chat');

    const other = await context.newPage();
    await other.goto('/profile');
    await expect(other.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();

    await new AppShell(page).signOut();
    await expect(page).toHaveURL((url) => pathAndSearch(url) === '/');
    await expect(other).toHaveURL((url) => pathAndSearch(url) === signInRedirect('/profile'));
  });

  for (const how of ['reloaded', 'opened by URL'] as const) {
    test(`signing out in a tab ${how} after the other opened signs the other out within 2 s`, async ({
      page,
      context,
      signedInUser: _signedIn,
    }) => {
      await page.goto('/chat');
      await expect(page).toHaveURL((url) => url.pathname === '/chat');
      const other = await context.newPage();
      await other.goto('/profile');
      await expect(other.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();

      if (how === 'reloaded') await page.reload();
      else await page.goto('/prompts');
      await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
      await new AppShell(page).signOut();
      await expect(page).toHaveURL((url) => pathAndSearch(url) === '/');
      await expect(other).toHaveURL((url) => pathAndSearch(url) === signInRedirect('/profile'), {
        timeout: 2_000,
      });
    });
  }

  test('the diagnostics overlay shows only when local storage diag is 1', async ({ page }) => {
    const state = new ResilienceState(page);
    await page.goto('/');
    await expect.poll(() => state.tabRole()).toBe('leader');
    await expect(state.diagnostics()).toHaveCount(0);

    await state.enableDiagnostics();
    await page.reload();
    await expect(state.diagnostics()).toBeVisible();
    await expect(page.getByTestId('diagnostics-tab-role')).toHaveText(/leader|electing/);
  });
});
