import type { Page } from '@playwright/test';

/** /reset-password?token=…: choose a new password. */
export class ResetPasswordPage {
  constructor(private readonly page: Page) {}

  async setNewPassword(password: string) {
    await this.page.getByLabel('New password', { exact: true }).fill(password);
    await this.page.getByLabel('Confirm password', { exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Set new password' }).click();
  }
}
