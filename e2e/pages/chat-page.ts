import { expect, type Locator, type Page } from '@playwright/test';

/** /chat and /chat/{id}: the conversation list, the messages and the composer. */
export class ChatPage {
  constructor(private readonly page: Page) {}

  /** The conversation list in the workspace's sidebar. */
  readonly sidebar = () =>
    this.page
      .getByRole('complementary', { name: 'Sidebar' })
      .getByRole('region', { name: 'Conversations', exact: true });

  /** The conversation pane (messages and composer), apart from the sidebar's titles. */
  readonly pane = () => this.page.getByRole('region', { name: 'Chat' });

  /** The message box of the composer. */
  readonly composer = () => this.page.getByLabel('Message', { exact: true });

  message(text: string | RegExp): Locator {
    return this.pane().getByText(text);
  }

  async goto() {
    await this.page.goto('/chat');
    await expect(this.composer()).toBeVisible();
  }

  async chooseProvider(name: string) {
    await this.page.getByLabel('Provider', { exact: true }).selectOption({ label: name });
  }

  async send(text: string) {
    await this.composer().fill(text);
    await this.composer().press('Enter');
  }

  /** A message of the user that did not go, marked "Not sent", with its reason and actions. */
  notSent(text: string): Locator {
    return this.pane().locator('[data-status="not-sent"]').filter({ hasText: text });
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

  /** Ticks a knowledge base under the composer; its chip shows it attached. */
  async attachKnowledgeBase(name: string) {
    await this.page.getByRole('button', { name: /^Knowledge/ }).click();
    await this.page.getByRole('checkbox', { name: new RegExp(name) }).check();
    await this.page.keyboard.press('Escape');
    await expect(
      this.page.getByRole('list', { name: 'Knowledge bases in this chat' }).getByText(name),
    ).toBeVisible();
  }

  /** The newest reply of the assistant. */
  lastReply(): Locator {
    return this.pane().locator('[data-role="assistant"]').last();
  }

  /** The numbered sources of the newest reply. */
  lastSources(): Locator {
    return this.lastReply().getByRole('list', { name: 'Sources' });
  }

  /** Waits until the thread ends with `text` and a finished reply to it. */
  async waitForReplyTo(text: string, timeout = 30_000) {
    await expect
      .poll(
        () =>
          this.pane().evaluate((pane, sent) => {
            const rows = [...pane.querySelectorAll('[data-role]')];
            const reply = rows.at(-1);
            const question = rows.at(-2);
            return Boolean(
              reply?.getAttribute('data-role') === 'assistant' &&
              !reply.hasAttribute('aria-busy') &&
              question?.getAttribute('data-role') === 'user' &&
              question.textContent?.includes(sent),
            );
          }, text),
        { timeout },
      )
      .toBe(true);
  }
}
