import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';

/** The help center as a visitor uses it: its search box, results and articles. */
class HelpCenter {
  constructor(private readonly page: Page) {}

  async goto(path = '/help') {
    await this.page.goto(path);
  }

  searchBox() {
    return this.page.getByRole('searchbox', { name: 'Search the help center' });
  }

  results() {
    return this.page.getByRole('list', { name: 'Search results' });
  }

  heading(level: 1 | 2, name: string) {
    return this.page.getByRole('heading', { level, name, exact: true });
  }
}

test('a visitor searches the help, opens the article at the heading found, and goes back', async ({
  page,
}) => {
  const help = new HelpCenter(page);
  await help.goto();
  await expect(help.heading(1, 'Help center')).toBeVisible();
  await expect(page).toHaveTitle('Help center · Chorus');

  await test.step('a word found in one article only gives that article, with the word marked', async () => {
    await help.searchBox().fill('pplx');
    await expect(page).toHaveURL((url) => url.searchParams.get('q') === 'pplx');
    const hits = help.results().getByRole('link');
    await expect(hits).toHaveCount(1);
    await expect(hits.first()).toContainText('Keys and providers › Key formats');
    await expect(hits.first().locator('mark').first()).toHaveText('pplx');
  });

  await test.step('the hit opens the article at its heading, scrolled to and marked', async () => {
    await help.results().getByRole('link').first().click();
    await expect(page).toHaveURL((url) => url.pathname === '/help/keys-and-providers');
    expect(new URL(page.url()).hash).toBe('#key-formats');
    await expect(help.heading(1, 'Keys and providers')).toBeVisible();
    await expect(page).toHaveTitle('Keys and providers · Help · Chorus');
    const heading = page.locator('#key-formats');
    await expect(heading).toHaveText('Key formats');
    await expect(heading).toHaveAttribute('data-target', '');
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport();
    await expect(
      page.getByText("Invalid Perplexity API key format - should start with 'pplx-'"),
    ).toBeVisible();
  });

  await test.step('Back returns to the search as it was', async () => {
    await page.goBack();
    await expect(page).toHaveURL((url) => url.pathname === '/help');
    await expect(help.searchBox()).toHaveValue('pplx');
    await expect(help.results().getByRole('link')).toHaveCount(1);
  });
});

test('an unknown help address says so, with a search and a way back', async ({ page }) => {
  const help = new HelpCenter(page);
  await help.goto('/help/no-such-article');
  await expect(help.heading(1, 'There is no help article here')).toBeVisible();
  await expect(page.getByText('/help/no-such-article')).toBeVisible();

  await help.searchBox().fill('rate limit');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/help');
  await expect(help.results().getByRole('link').first()).toHaveAttribute(
    'href',
    '/help/chat#rate-limits',
  );

  await help.goto('/help/no-such-article');
  await page.getByRole('link', { name: 'Back to help' }).click();
  await expect(help.heading(1, 'Help center')).toBeVisible();
});

test('the prompt library’s empty state leads to the prompts article', async ({
  page,
  signedInUser: _user,
}) => {
  await page.goto('/prompts');
  await expect(page.getByText('No prompts saved yet')).toBeVisible();
  await page.getByRole('link', { name: 'How prompts work' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/help/prompts');
  await expect(page.getByRole('heading', { level: 1, name: 'Prompts' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Variables' })).toBeVisible();
});
