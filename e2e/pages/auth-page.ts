import { expect, type Page } from '@playwright/test';

/** The /auth page: Sign in and Sign up modes, and the "Forgot password?" form. */
export class AuthPage {
  constructor(private readonly page: Page) {}

  async goto(search = '') {
    await this.page.goto(`/auth${search}`);
    await expect(this.page.getByLabel('Email', { exact: true })).toBeVisible();
  }

  /** Fills and sends the sign-up form (switching to Sign up mode first when needed). */
  async signUp(name: string, email: string, password: string) {
    await this.switchTo('Sign up');
    await this.page.getByLabel('Name', { exact: true }).fill(name);
    await this.page.getByLabel('Email', { exact: true }).fill(email);
    await this.page.getByLabel('Password', { exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Sign up', exact: true }).click();
  }

  async signIn(email: string, password: string) {
    await this.switchTo('Sign in');
    await this.page.getByLabel('Email', { exact: true }).fill(email);
    await this.page.getByLabel('Password', { exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  /** Opens "Forgot password?" and asks for a reset link for `email`. */
  async requestReset(email: string) {
    await this.switchTo('Sign in');
    await this.page.getByRole('button', { name: 'Forgot password?' }).click();
    await this.page.getByLabel('Email', { exact: true }).fill(email);
    await this.page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(this.page.getByText('Check your email for a reset link')).toBeVisible();
  }

  private async switchTo(mode: 'Sign in' | 'Sign up') {
    const tab = this.page.getByRole('tab', { name: mode, exact: true });
    if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
  }
}
