import { expect, type Locator, type Page } from '@playwright/test';

/** A conversation's URL: /chat/{uuid}, with or without a query. */
export const conversationUrl = /\/chat\/[0-9a-f-]{36}(\?.*)?$/;

/**
 * The chat workspace as its user sees it: the sidebar (or the phone's drawer), the messages of the
 * open conversation and the composer with its toolbar.
 */
export class ChatWorkspace {
  constructor(private readonly page: Page) {}

  /** The sidebar beside the page on wide screens. */
  readonly sidebar = () => this.page.getByRole('complementary', { name: 'Sidebar' });

  /** The phone's slide-in drawer that holds the sidebar. */
  readonly drawer = () => this.page.getByRole('dialog', { name: 'Navigation' });

  readonly drawerButton = () => this.page.getByRole('button', { name: 'Open navigation' });

  /** The conversation pane: its messages and, below them, notices and the composer. */
  readonly pane = () => this.page.getByRole('region', { name: 'Chat', exact: true });

  readonly messageList = () => this.page.getByRole('region', { name: 'Messages', exact: true });

  readonly composer = () => this.page.getByLabel('Message', { exact: true });

  /** Every message of the user shown in the list, sent or not. */
  readonly userMessages = () => this.messageList().locator('[data-role="user"]');

  readonly replies = () => this.messageList().locator('[data-role="assistant"]');

  /** User messages kept in the browser, marked "Not sent". */
  readonly notSent = () => this.messageList().locator('[data-status="not-sent"]');

  /** The reply the provider's simulator gives: it names itself and echoes the prompt. */
  reply(providerLabel: string): Locator {
    return this.replies().filter({ hasText: `Hello from the ${providerLabel} simulator` });
  }

  async goto(path = '/chat') {
    await this.page.goto(path);
    await expect(this.composer()).toBeEnabled();
  }

  async chooseProvider(name: string) {
    await this.page.getByLabel('Provider', { exact: true }).selectOption({ label: name });
  }

  async send(text: string) {
    await this.composer().fill(text);
    await this.composer().press('Enter');
  }

  /** Starts a chat from the sidebar's New chat link (an in-app navigation, not a page load). */
  async newChat(nav: Locator = this.sidebar()) {
    await nav.getByRole('link', { name: 'New chat' }).click();
    await expect(this.page).toHaveURL((url) => url.pathname === '/chat');
    await expect(this.composer()).toBeEnabled();
  }

  /** Sends the first message of a new chat and waits for it to become /chat/{id} with a reply. */
  async startChat(text: string, providerLabel = 'OpenAI'): Promise<string> {
    await this.send(text);
    await expect(this.page).toHaveURL(conversationUrl);
    await expect(this.reply(providerLabel).last()).toBeVisible();
    await expect(this.stopButton()).toHaveCount(0);
    return new URL(this.page.url()).pathname;
  }

  readonly stopButton = () => this.page.getByRole('button', { name: 'Stop the reply' });

  conversation(title: string, nav: Locator = this.sidebar()): Locator {
    return nav.getByRole('link', { name: title, exact: true });
  }

  /** The row of a conversation in the list, with its Rename and Delete buttons. */
  private conversationRow(title: string, nav: Locator): Locator {
    const link = this.page.getByRole('link', { name: title, exact: true });
    return nav.getByRole('listitem').filter({ has: link });
  }

  async rename(title: string, newTitle: string, nav: Locator = this.sidebar()) {
    await this.conversationRow(title, nav).hover();
    await nav.getByRole('button', { name: `Rename ${title}`, exact: true }).click();
    const input = nav.getByLabel('Conversation title');
    await input.fill(newTitle);
    await input.press('Enter');
  }

  async remove(title: string, nav: Locator = this.sidebar()) {
    await this.conversationRow(title, nav).hover();
    await nav.getByRole('button', { name: `Delete ${title}`, exact: true }).click();
    const confirm = this.page.getByRole('dialog', { name: 'Delete this conversation?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  }

  /** Hovers a reply so its actions show, then regenerates it. */
  async regenerate(reply: Locator) {
    await reply.hover();
    await reply.getByRole('button', { name: 'Regenerate reply' }).click();
  }

  readonly systemPromptButton = () =>
    this.pane().getByRole('button', { name: 'System prompt', exact: true });

  readonly systemPromptDialog = () => this.page.getByRole('dialog', { name: 'System prompt' });
}
