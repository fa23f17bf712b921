import { expect, type Locator, type Page } from '@playwright/test';

/** /copy-api-keys: one row per provider to test, save or remove a key. */
export class KeysPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/copy-api-keys');
    await expect(this.page.getByRole('heading', { name: 'Your provider keys' })).toBeVisible();
  }

  private row(providerName: string): Locator {
    return this.page
      .getByRole('listitem')
      .filter({ has: this.page.getByLabel(`${providerName} API key`) });
  }

  async testKey(providerName: string, key: string) {
    await this.page.getByLabel(`${providerName} API key`).fill(key);
    await this.row(providerName).getByRole('button', { name: 'Test' }).click();
  }

  async saveKey(providerName: string, key: string) {
    await this.page.getByLabel(`${providerName} API key`).fill(key);
    await this.row(providerName).getByRole('button', { name: 'Save' }).click();
    await expect(this.row(providerName).getByText(`…${key.slice(-4)}`)).toBeVisible();
  }
}
