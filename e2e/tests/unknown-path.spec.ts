import { expect, test } from '../support/fixtures.ts';

test('an unknown path shows the landing page and keeps its URL', async ({ page }) => {
  await page.goto('/');
  const landingHeading = page.getByRole('heading', { level: 1 });
  await expect(landingHeading).toBeVisible();
  const headingText = await landingHeading.innerText();

  await page.goto('/no-such-page-xyz');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(headingText);
  expect(new URL(page.url()).pathname).toBe('/no-such-page-xyz');
});
