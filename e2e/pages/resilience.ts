import { expect, type Page } from '@playwright/test';
import { messages } from '../../packages/shared/src/messages.ts';

export type TabRole = 'electing' | 'leader' | 'follower';

/** The 'Rate Limit Active' page that covers the app while a rate limit lasts. */
export class RateLimitScreen {
  constructor(private readonly page: Page) {}

  readonly heading = () =>
    this.page.getByRole('heading', { name: messages.rateLimit.pageTitle, exact: true });

  /** The seconds the page says are left, read from 'Retry in N seconds'. */
  readonly secondsShown = async (): Promise<number> => {
    const text = await this.page
      .getByRole('alertdialog')
      .getByText(/^Retry in \d+ seconds?$/)
      .textContent();
    return Number(/\d+/.exec(text ?? '')?.[0] ?? Number.NaN);
  };

  readonly retryNow = () =>
    this.page
      .getByRole('alertdialog')
      .getByRole('button', { name: messages.rateLimit.retryNow, exact: true });
}

/** What the resilience layer shows of a tab: its leadership role and the diagnostics overlay. */
export class ResilienceState {
  constructor(private readonly page: Page) {}

  /** The role the tab publishes on <html data-tab-role>. */
  async tabRole(): Promise<TabRole | null> {
    return (await this.page.locator('html').getAttribute('data-tab-role')) as TabRole | null;
  }

  readonly diagnostics = () => this.page.getByRole('heading', { name: 'Diagnostics', exact: true });

  /** Sets local storage `diag` before any of the app's scripts run on every load. */
  async enableDiagnostics() {
    await this.page.addInitScript(() => window.localStorage.setItem('diag', '1'));
  }

  async waitForRole(role: TabRole, timeout = 10_000) {
    await expect.poll(() => this.tabRole(), { timeout }).toBe(role);
  }
}
