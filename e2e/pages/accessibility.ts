import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export type Finding = {
  path: string;
  theme: string;
  rule: string;
  impact: string;
  nodes: string[];
};

/** The rules whose outcome depends on the theme's colours. */
const themeRules = ['color-contrast', 'link-in-text-block'];

/** Violations that block people: axe's serious and critical ones. */
const blocking = new Set(['serious', 'critical']);

/**
 * One route as a person meets it: loaded, with exactly one <h1> and a <main>, then checked by
 * axe-core in the light and the dark theme (the app follows the system's colour scheme).
 */
export class AccessibilityAudit {
  constructor(private readonly page: Page) {}

  /** Waits for the page's code and data, then answers what its structure lacks. */
  private async structure(path: string): Promise<Finding[]> {
    const { page } = this;
    await expect(page.locator('main')).toHaveCount(1);
    await expect(page.getByRole('status').filter({ hasText: /^(Loading|Checking)/ })).toHaveCount(
      0,
    );
    const headings = page.locator('h1');
    const one = await expect(headings)
      .toHaveCount(1, { timeout: 3_000 })
      .then(() => true)
      .catch(() => false);
    if (one) return [];
    const texts = await headings.allInnerTexts();
    return [{ path, theme: '-', rule: 'exactly-one-h1', impact: 'serious', nodes: texts }];
  }

  private async violations(path: string, theme: 'light' | 'dark'): Promise<Finding[]> {
    await this.page.emulateMedia({ colorScheme: theme });
    await expect(this.page.locator('html')).toHaveClass(new RegExp(`(^|\\s)${theme}(\\s|$)`));
    const axe = new AxeBuilder({ page: this.page });
    // Every rule in the light theme; in the dark one only what colours change (axe is slow).
    if (theme === 'dark') axe.withRules(themeRules);
    const results = await axe.analyze();
    return results.violations
      .filter((v) => blocking.has(v.impact ?? ''))
      .map((v) => ({
        path,
        theme,
        rule: v.id,
        impact: v.impact ?? '',
        nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
      }));
  }

  /** Opens `path` and answers its serious and critical violations in both themes. */
  async audit(path: string): Promise<Finding[]> {
    await this.page.goto(path);
    await expect(this.page).toHaveURL((url) => url.pathname === path);
    return [
      ...(await this.structure(path)),
      ...(await this.violations(path, 'light')),
      ...(await this.violations(path, 'dark')),
    ];
  }
}
