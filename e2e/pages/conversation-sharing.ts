import { expect, type Download, type Locator, type Page } from '@playwright/test';
import {
  exportMessages,
  pinMessages,
  shareMessages,
} from '../../packages/shared/src/share-messages.ts';

/** The conversation list's "…" menu (pin, export, share) and the share dialog. */
export class ConversationSharing {
  constructor(private readonly page: Page) {}

  readonly list = () => this.page.getByRole('region', { name: 'Conversations' });

  readonly dialog = () => this.page.getByRole('dialog');

  /** What the list shows, top to bottom: group headings and conversation titles. */
  async listed(): Promise<string[]> {
    const texts = await this.list().getByRole('listitem').allTextContents();
    return texts.map((text) => text.replace(pinMessages.pinnedSuffix, '').trim());
  }

  private async menuOf(title: string): Promise<Locator> {
    await this.list().getByRole('link', { name: title }).hover();
    await this.list()
      .getByRole('button', { name: pinMessages.moreActions(title) })
      .click();
    const menu = this.page.getByRole('menu');
    await expect(menu).toBeVisible();
    return menu;
  }

  async pin(title: string) {
    await (await this.menuOf(title)).getByRole('menuitem', { name: pinMessages.pin }).click();
  }

  /** Exports as Markdown; resolves with the browser's download. */
  async exportMarkdown(title: string): Promise<Download> {
    const menu = await this.menuOf(title);
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      menu.getByRole('menuitem', { name: exportMessages.markdown }).click(),
    ]);
    return download;
  }

  async openShareDialog(title: string) {
    await (await this.menuOf(title)).getByRole('menuitem', { name: pinMessages.share }).click();
    await expect(
      this.dialog().getByRole('heading', { name: shareMessages.dialogTitle }),
    ).toBeVisible();
  }

  /** Creates a link in the open share dialog; resolves with its address. */
  async createLink(): Promise<string> {
    await this.dialog().getByRole('button', { name: shareMessages.create }).click();
    const link = this.dialog().getByLabel(shareMessages.linkLabel);
    await expect(link).toHaveValue(/\/share\/[\w-]{43}$/);
    return link.inputValue();
  }

  /** Revokes the link in the open share dialog, confirming when asked. */
  async revokeLink() {
    await this.dialog().getByRole('button', { name: shareMessages.revoke }).click();
    await expect(
      this.dialog().getByRole('heading', { name: shareMessages.stopTitle }),
    ).toBeVisible();
    await this.dialog().getByRole('button', { name: shareMessages.revoke }).click();
    await expect(this.dialog().getByText(shareMessages.notShared)).toBeVisible();
  }

  async closeDialog() {
    await this.page.keyboard.press('Escape');
    await expect(this.dialog()).toHaveCount(0);
  }
}
