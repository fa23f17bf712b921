import { expect, type Locator, type Page } from '@playwright/test';

/** /admin/users: the People table (role, plan, suspension) and the Requests tab. */
export class AdminUsersPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/admin/users');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  }

  async search(text: string) {
    await this.page.getByRole('searchbox', { name: 'Search users' }).fill(text);
  }

  row(email: string): Locator {
    return this.page.getByRole('row').filter({ hasText: email });
  }

  /** Suspends the user named `name` (their display name) after confirming. */
  async suspend(email: string, name: string) {
    await this.search(email);
    await this.row(email)
      .getByRole('button', { name: `Suspend ${name}` })
      .click();
    await this.page.getByRole('dialog').getByRole('button', { name: 'Suspend' }).click();
    await expect(this.page.getByText(`${name} is suspended`)).toBeVisible();
    await expect(this.row(email).getByRole('button', { name: 'Reactivate' })).toBeVisible();
  }

  async openRequests() {
    await this.page.getByRole('tab', { name: /^Requests/ }).click();
  }

  request(email: string): Locator {
    return this.page.getByRole('listitem', { name: `Request from ${email}` });
  }

  async approve(email: string) {
    await this.request(email).getByRole('button', { name: 'Approve' }).click();
    await expect(this.page.getByText(`Invitation e-mailed to ${email}`)).toBeVisible();
  }
}
