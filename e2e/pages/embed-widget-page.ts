import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';

export type NewWidget = {
  name: string;
  /** The agent's or custom AI's name in the "Agent or custom AI" list. */
  target: string;
  origins: string[];
  title: string;
  color?: string;
  greeting?: string;
  dailyTokens?: string;
  monthlyTokens?: string;
  messagesPerHour?: string;
  maxReplyTokens?: string;
  requireSigned?: boolean;
};

/**
 * /agent-embed-chat: the owner's widgets, the dialog that creates or edits one, the secret shown
 * once, and a widget's page (snippet, live preview, sessions).
 */
export class EmbedWidgetsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/agent-embed-chat');
    await expect(
      this.page.getByRole('heading', { name: 'Embedded agent chat', level: 1 }),
    ).toBeVisible();
  }

  /** Fills the "New widget" dialog and creates the widget; the secret dialog then shows. */
  async create(widget: NewWidget) {
    await this.page.getByRole('button', { name: 'New widget' }).first().click();
    const dialog = this.page.getByRole('dialog', { name: 'New widget' });
    await dialog.getByLabel('Name', { exact: true }).fill(widget.name);
    await dialog
      .getByLabel('Agent or custom AI', { exact: true })
      .selectOption({ label: widget.target });
    for (const origin of widget.origins) {
      await dialog.getByRole('textbox', { name: 'Add origin' }).fill(origin);
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      await expect(
        dialog.getByRole('list', { name: 'Allowed origins' }).getByText(origin, { exact: true }),
      ).toBeVisible();
    }
    await dialog.getByLabel('Title', { exact: true }).fill(widget.title);
    if (widget.color) await dialog.getByLabel('Colour', { exact: true }).fill(widget.color);
    if (widget.greeting) await dialog.getByLabel('Greeting', { exact: true }).fill(widget.greeting);
    const numbers = [
      ['Daily token budget', widget.dailyTokens],
      ['Monthly token budget', widget.monthlyTokens],
      ['Messages per visitor per hour', widget.messagesPerHour],
      ['Max reply tokens', widget.maxReplyTokens],
    ] as const;
    for (const [label, value] of numbers) {
      if (value !== undefined) await dialog.getByLabel(label, { exact: true }).fill(value);
    }
    await dialog
      .getByRole('switch', { name: 'Require signed visitors' })
      .setChecked(widget.requireSigned ?? false);
    await dialog.getByRole('button', { name: 'Create widget' }).click();
    await expect(dialog).toBeHidden();
  }

  /** The dialog that shows a widget's whole secret, once. */
  secretDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Copy the widget’s secret now' });
  }

  /** Reads the secret from its dialog and closes it. */
  async takeSecret(): Promise<string> {
    const dialog = this.secretDialog();
    const secret = (await dialog.getByLabel('Widget secret', { exact: true }).innerText()).trim();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    return secret;
  }

  /** The `<script>` tag to paste, as the widget's page shows it. */
  async snippet(): Promise<string> {
    const block = this.page.getByLabel('Snippet', { exact: true });
    await expect(block).toBeVisible();
    await expect(this.page.getByRole('button', { name: 'Copy snippet' })).toBeVisible();
    return (await block.innerText()).trim();
  }

  preview(): FrameLocator {
    return this.page.frameLocator('iframe[title="Widget preview"]');
  }

  /** The widget's page: its id is in the address (`?widget=`). */
  widgetId(): string {
    const id = new URL(this.page.url()).searchParams.get('widget');
    if (!id) throw new Error(`Not on a widget's page: ${this.page.url()}`);
    return id;
  }

  /** The widget's Sessions tab (the app's sidebar has conversations and a search of its own). */
  sessions(): Locator {
    return this.page.getByRole('tabpanel', { name: 'Sessions' });
  }

  conversations(): Locator {
    return this.sessions().getByRole('list', { name: 'Conversations' });
  }

  async searchSessions(words: string) {
    const search = this.sessions().getByRole('search');
    await search.getByRole('searchbox', { name: 'Search conversations' }).fill(words);
    await search.getByRole('button', { name: 'Search', exact: true }).click();
  }

  /** Opens the editor of the open widget, sets labelled fields to the values, and saves. */
  async edit(widgetName: string, fields: Record<string, string>) {
    await this.page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = this.page.getByRole('dialog', { name: `Edit “${widgetName}”` });
    for (const [label, value] of Object.entries(fields)) {
      await dialog.getByLabel(label, { exact: true }).fill(value);
    }
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toBeHidden();
  }
}

/** The widget as a visitor meets it on a host page: the loader's button and the chat iframe. */
export class EmbeddedWidget {
  constructor(
    private readonly page: Page,
    /** The widget's title, which names its button and its iframe. */
    private readonly title: string,
  ) {}

  launcher(): Locator {
    return this.page.getByRole('button', { name: `Open chat: ${this.title}` });
  }

  frame(): FrameLocator {
    return this.page.frameLocator(`iframe[title="${this.title}"]`);
  }

  log(): Locator {
    return this.frame().getByRole('log', { name: 'Messages' });
  }

  input(): Locator {
    return this.frame().getByRole('textbox', { name: 'Your message' });
  }

  /** The widget's notice (a refused session, a failed load), inside the iframe. */
  notice(): Locator {
    return this.frame().getByRole('alert');
  }

  async open() {
    await this.launcher().click();
    await expect(
      this.page.getByRole('button', { name: `Close chat: ${this.title}` }),
    ).toHaveAttribute('aria-expanded', 'true');
  }

  /** Sends a message once the widget is ready for it (its session started). */
  async send(text: string) {
    await this.input().fill(text);
    await this.frame().getByRole('button', { name: 'Send message' }).click();
    // The reply has ended once the composer is given back.
    await expect(this.input()).toBeEnabled();
    await expect(this.input()).toHaveValue('');
  }
}
