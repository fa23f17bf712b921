import type { Locator, Page } from '@playwright/test';

export type ThemeChoice = 'Light' | 'Dark' | 'System';

/**
 * What surrounds the pages: the theme menu (in the public header and in the workspace), and on
 * signed-in pages the workspace's sidebar with its areas and the account menu.
 */
export class AppShell {
  constructor(private readonly page: Page) {}

  /** The signed-in workspace's sidebar, beside the page on wide screens. */
  readonly sidebar = () => this.page.getByRole('complementary', { name: 'Sidebar' });

  /** A link of the sidebar's areas, by section ('Workspace', 'Back office', …) and label. */
  areaLink(section: string, label: string): Locator {
    return this.sidebar()
      .getByRole('navigation', { name: 'Areas' })
      .getByRole('list', { name: section, exact: true })
      .getByRole('link', { name: label, exact: true });
  }

  async setTheme(theme: ThemeChoice) {
    await this.page.getByRole('button', { name: 'Toggle theme' }).click();
    await this.page.getByRole('menuitemradio', { name: theme, exact: true }).click();
  }

  /**
   * Signs out from the workspace's account menu. The menu of the sidebar, not the public header's:
   * right after an in-app move to a signed-in page the header can still be on screen while the
   * workspace's code loads, and it goes away with its menu.
   */
  async signOut() {
    await this.sidebar().getByRole('button', { name: 'Account menu' }).click();
    await this.page.getByRole('menuitem', { name: 'Sign out' }).click();
  }
}
