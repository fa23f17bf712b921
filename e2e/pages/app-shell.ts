import type { Page } from '@playwright/test';

export type ThemeChoice = 'Light' | 'Dark' | 'System';

/** The header every page shares: the theme menu and the signed-in user's menu. */
export class AppShell {
  constructor(private readonly page: Page) {}

  async setTheme(theme: ThemeChoice) {
    await this.page.getByRole('button', { name: 'Toggle theme' }).click();
    await this.page.getByRole('menuitemradio', { name: theme, exact: true }).click();
  }

  async signOut() {
    await this.page.getByRole('button', { name: 'Account menu' }).click();
    await this.page.getByRole('menuitem', { name: 'Sign out' }).click();
  }
}
