import { expect, type Page } from '@playwright/test';

/** /request-access: an e-mail and a reason for an admin to approve. */
export class RequestAccessPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/request-access');
    await expect(this.page.getByRole('heading', { name: 'Request access' })).toBeVisible();
  }

  async request(email: string, reason: string) {
    await this.page.getByLabel('Email', { exact: true }).fill(email);
    await this.page.getByLabel('Why do you need access?').fill(reason);
    await this.page.getByRole('button', { name: 'Request access' }).click();
    await expect(this.page.getByText('Request received')).toBeVisible();
  }
}
