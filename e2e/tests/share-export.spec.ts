import { readFile } from 'node:fs/promises';
import { pinMessages, shareMessages } from '../../packages/shared/src/share-messages.ts';
import { ChatPage } from '../pages/chat-page.ts';
import { ConversationSharing } from '../pages/conversation-sharing.ts';
import { KeysPage } from '../pages/keys-page.ts';
import { uniqueClientIp } from '../support/client-ip.ts';
import { expect, test } from '../support/fixtures.ts';

test('a user pins, exports and shares a conversation, then revokes the link', async ({
  page,
  browser,
  signedInUser: _signedIn,
}) => {
  test.setTimeout(90_000);
  const chat = new ChatPage(page);
  const sharing = new ConversationSharing(page);

  await test.step('chat twice with OpenAI', async () => {
    const keys = new KeysPage(page);
    await keys.goto();
    await keys.saveKey('OpenAI', 'sk-e2e-share-0001');
    for (const topic of ['Plan a picnic', 'Second topic']) {
      await chat.goto();
      await chat.chooseProvider('OpenAI');
      await chat.send(topic);
      await expect(chat.reply('OpenAI')).toBeVisible();
    }
    await expect.poll(() => sharing.listed()).toEqual(['Second topic', 'Plan a picnic']);
  });

  await test.step('pin the first conversation: it moves under "Pinned"', async () => {
    await sharing.pin('Plan a picnic');
    const pinnedOrder = [
      pinMessages.pinnedGroup,
      'Plan a picnic',
      pinMessages.othersGroup,
      'Second topic',
    ];
    await expect.poll(() => sharing.listed()).toEqual(pinnedOrder);
    await page.reload();
    await expect.poll(() => sharing.listed()).toEqual(pinnedOrder);
  });

  await test.step('export it as Markdown', async () => {
    const download = await sharing.exportMarkdown('Plan a picnic');
    expect(download.suggestedFilename()).toBe('Plan a picnic.md');
    const text = await readFile(await download.path(), 'utf8');
    expect(text.startsWith('# Plan a picnic\n')).toBe(true);
    expect(text).toContain('Plan a picnic');
    expect(text).toContain('Hello from the OpenAI simulator');
  });

  const guest = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': uniqueClientIp() },
  });
  try {
    const guestPage = await guest.newPage();
    let url = '';

    await test.step('create a share link and open it with no session', async () => {
      await sharing.openShareDialog('Plan a picnic');
      await expect(sharing.dialog().getByText(shareMessages.notShared)).toBeVisible();
      url = await sharing.createLink();
      expect(url.startsWith(new URL(page.url()).origin)).toBe(true);
      await expect(sharing.dialog().getByText(shareMessages.shownOnce)).toBeVisible();
      await sharing.closeDialog();

      await guestPage.goto(url);
      await expect(guestPage.getByRole('heading', { level: 1 })).toHaveText('Plan a picnic');
      const messages = guestPage.getByRole('list', { name: 'Messages' });
      await expect(messages.getByText('Plan a picnic', { exact: true })).toBeVisible();
      await expect(messages.getByText(/Hello from the OpenAI simulator/)).toBeVisible();
      await expect(guestPage.getByText(/Shared on /)).toBeVisible();
    });

    await test.step('revoke it: the link no longer works', async () => {
      await sharing.openShareDialog('Plan a picnic');
      await expect(
        sharing.dialog().getByText(/Shared on .*: anyone with the link can read 2 messages/),
      ).toBeVisible();
      await sharing.revokeLink();
      await sharing.closeDialog();

      await guestPage.reload();
      await expect(guestPage.getByRole('heading', { level: 1 })).toHaveText(
        shareMessages.unavailableTitle,
      );
      await expect(guestPage.getByText(shareMessages.unavailable)).toBeVisible();
      await expect(guestPage.getByRole('link', { name: shareMessages.home })).toBeVisible();
    });
  } finally {
    await guest.close();
  }
});
