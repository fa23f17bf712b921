import { expect, type Locator, type Page } from '@playwright/test';

/** /admin/pricing-plans: the plan list and the create / edit form. */
export class PricingPlansPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/admin/pricing-plans');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Pricing plans' })).toBeVisible();
  }

  plan(name: string): Locator {
    return this.page.getByRole('listitem', { name, exact: true });
  }

  private form(): Locator {
    return this.page.getByRole('form', { name: 'Pricing plan' });
  }

  async create(name: string, dailyLimit: number | null) {
    await this.page.getByRole('button', { name: 'New plan' }).click();
    await this.form().getByLabel('Name', { exact: true }).fill(name);
    await this.form()
      .getByLabel('Daily prompt limit')
      .fill(dailyLimit === null ? '' : String(dailyLimit));
    await this.form().getByRole('button', { name: 'Create plan' }).click();
    await expect(this.page.getByText(`${name} created`)).toBeVisible();
    await expect(this.plan(name)).toBeVisible();
  }

  async setDailyLimit(name: string, dailyLimit: number) {
    await this.plan(name)
      .getByRole('button', { name: `Edit ${name}` })
      .click();
    await this.form().getByLabel('Daily prompt limit').fill(String(dailyLimit));
    await this.form().getByRole('button', { name: 'Save plan' }).click();
    await expect(this.page.getByText(`${name} saved`)).toBeVisible();
    await expect(this.plan(name).getByText(`Daily prompts: ${dailyLimit}`)).toBeVisible();
  }
}
