import { storageKeys } from '../../packages/shared/src/storage-keys.ts';
import { expect, test } from '../support/fixtures.ts';

test('the chosen theme survives a reload', async ({ page, appShell }) => {
  await page.goto('/');
  await appShell.setTheme('Dark');
  await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);

  await page.reload();
  await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
  const stored = await page.evaluate((key) => window.localStorage.getItem(key), storageKeys.theme);
  expect(stored).toBe('dark');
});
