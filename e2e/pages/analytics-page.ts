import { expect, type Locator, type Page } from '@playwright/test';

/** /admin/analytics: totals and the recharts charts. */
export class AnalyticsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/admin/analytics');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  }

  chart(title: string): Locator {
    return this.page.getByRole('figure', { name: title });
  }

  stat(label: string): Locator {
    return this.page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
  }
}
