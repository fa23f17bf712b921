import { expect, type Locator, type Page } from '@playwright/test';

/** /chat and /chat/{id}: the conversation list, the messages and the composer. */
export class ChatPage {
  constructor(private readonly page: Page) {}

  readonly sidebar = () => this.page.getByRole('complementary', { name: 'Conversations' });

  /** The conversation pane (messages and composer), apart from the sidebar's titles. */
  readonly pane = () => this.page.getByRole('region', { name: 'Chat' });

  message(text: string | RegExp): Locator {
    return this.pane().getByText(text);
  }

  async goto() {
    await this.page.goto('/chat');
    await expect(this.page.getByLabel('Message', { exact: true })).toBeVisible();
  }

  async chooseProvider(name: string) {
    await this.page.getByLabel('Provider', { exact: true }).selectOption({ label: name });
  }

  async send(text: string) {
    const box = this.page.getByLabel('Message', { exact: true });
    await box.fill(text);
    await box.press('Enter');
  }

  /** The reply text shown for the provider's simulator. */
  reply(providerLabel: string): Locator {
    return this.pane().getByText(`Hello from the ${providerLabel} simulator`);
  }

  conversation(title: string): Locator {
    return this.sidebar().getByRole('link', { name: title });
  }

  async rename(title: string, newTitle: string) {
    await this.conversation(title).hover();
    await this.sidebar()
      .getByRole('button', { name: `Rename ${title}` })
      .click();
    const input = this.sidebar().getByLabel('Conversation title');
    await input.fill(newTitle);
    await input.press('Enter');
  }

  async remove(title: string) {
    await this.conversation(title).hover();
    await this.sidebar()
      .getByRole('button', { name: `Delete ${title}` })
      .click();
    await this.page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  }
}
