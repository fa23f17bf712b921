import type { Locator, Page } from '@playwright/test';
import { ChatWorkspace } from '../pages/chat-workspace.ts';
import { KeysPage } from '../pages/keys-page.ts';
import { expect, test } from '../support/fixtures.ts';
import { newTestUser } from '../support/users.ts';

/** /start: the getting-started checklist with its progress bar, and the starting points. */
class StartPage {
  constructor(private readonly page: Page) {}

  readonly progress = () =>
    this.page.getByRole('progressbar', { name: 'Getting-started checklist' });

  step(title: string): Locator {
    return this.page.getByRole('list', { name: 'Steps' }).getByRole('listitem', { name: title });
  }

  /** Waits for the checklist to say `done` of `total`, in its text and its progress bar. */
  async expectProgress(done: number, total: number) {
    await expect(this.page.getByText(`${done} of ${total} done`, { exact: true })).toBeVisible();
    await expect(this.progress()).toHaveAttribute('aria-valuenow', String(done));
    await expect(this.progress()).toHaveAttribute('aria-valuemax', String(total));
  }

  async expectDone(title: string, done: boolean) {
    await expect(this.step(title)).toHaveAttribute('data-done', String(done));
  }

  /** Back to /start from the workspace's sidebar: an in-app navigation, not a page load. */
  async openFromSidebar() {
    await this.page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('link', { name: 'Start', exact: true })
      .click();
    await expect(this.page).toHaveURL((url) => url.pathname === '/start');
  }
}

test('a new user follows /start from zero to the first chat reply, watching the checklist tick', async ({
  page,
  authPage,
}) => {
  test.setTimeout(60_000);
  const start = new StartPage(page);
  const user = newTestUser('start');

  await test.step('sign up from /home, then open /start: nothing is done yet', async () => {
    await page.goto('/home');
    await page.getByRole('link', { name: 'Get started free' }).click();
    await authPage.signUp(user.name, user.email, user.password);
    await expect(page).toHaveURL((url) => url.pathname === '/chat');
    await start.openFromSidebar();
    await expect(page.getByRole('heading', { level: 1, name: 'Get started' })).toBeVisible();
    await expect(page).toHaveTitle('Get started · Chorus');
    await start.expectProgress(0, 4);
    for (const title of ['Add an API key', 'Get your first reply', 'Save a prompt']) {
      await start.expectDone(title, false);
    }
  });

  await test.step("the key step's action saves a key; back on /start it is ticked", async () => {
    await start.step('Add an API key').getByRole('link', { name: 'Add a key' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/copy-api-keys');
    // Sign-up makes Gemini the chat's provider, so that is the key a new user adds first.
    await new KeysPage(page).saveKey('Gemini', 'gemini-test-start-checklist-0001');
    await page.goBack();
    await expect(page).toHaveURL((url) => url.pathname === '/start');
    await start.expectProgress(1, 4);
    await start.expectDone('Add an API key', true);
    await expect(start.step('Add an API key').getByText('Done')).toBeVisible();
  });

  await test.step("the chat step's action opens the chat; the first reply ticks it", async () => {
    await start.step('Get your first reply').getByRole('link', { name: 'Start a chat' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/chat');
    const chat = new ChatWorkspace(page);
    await expect(chat.composer()).toBeEnabled();
    await chat.startChat('Hello from the getting-started checklist', 'Gemini');
    await start.openFromSidebar();
    await start.expectProgress(2, 4);
    await start.expectDone('Get your first reply', true);
    await start.expectDone('Save a prompt', false);
  });

  await test.step('the checklist can be dismissed and shown again, and stays as chosen', async () => {
    await page.getByRole('button', { name: 'Dismiss the checklist' }).click();
    await expect(start.progress()).toHaveCount(0);
    await page.reload();
    const show = page.getByRole('button', { name: 'Show the checklist' });
    await expect(show).toBeVisible();
    await expect(
      page.getByText('You hid the getting-started checklist (2 of 4 done).'),
    ).toBeVisible();
    await show.click();
    await start.expectProgress(2, 4);
  });
});
