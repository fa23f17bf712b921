import { randomBytes } from 'node:crypto';
import { messages } from '../../packages/shared/src/messages.ts';
import { rateLimitWindows } from '../../packages/shared/src/limits.ts';
import { ChatWorkspace, conversationUrl } from '../pages/chat-workspace.ts';
import { KeysPage } from '../pages/keys-page.ts';
import { saveKeyThroughApi } from '../support/api-keys.ts';
import { expect, test } from '../support/fixtures.ts';
import { providerSimRequests } from '../support/provider-sim.ts';

/** A word no other message of any test contains, so searches and request logs find only ours. */
const uniqueWord = (prefix: string) => `${prefix}${randomBytes(4).toString('hex')}`;

/** The OfflineNotice's words (apps/web/src/components/chat/chat-notices.tsx). */
const offlineNotice = /You are offline\. Keep writing/;

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the sidebar is a drawer from which a chat is started, found, renamed and deleted', async ({
    page,
    context,
    signedInUser: _signedIn,
  }) => {
    await saveKeyThroughApi(context.request, 'openai', 'sk-test-phone-0001');
    const chat = new ChatWorkspace(page);
    const drawer = chat.drawer();
    const title = uniqueWord('Phone picnic ');

    await test.step('the sidebar is hidden behind the drawer button', async () => {
      await chat.goto();
      await expect(chat.sidebar()).toHaveCount(0);
      await expect(drawer).toBeHidden();
      await chat.drawerButton().click();
      await expect(drawer).toBeVisible();
    });

    await test.step('New chat in the drawer closes it and opens an empty chat', async () => {
      await chat.newChat(drawer);
      await expect(drawer).toBeHidden();
      await expect(chat.composer()).toBeFocused();
    });

    await test.step('a message gets its reply', async () => {
      await chat.startChat(title);
      await expect(chat.reply('OpenAI')).toContainText(`You said: "${title}"`);
    });

    await test.step('the conversation is in the drawer, and opens from there', async () => {
      const conversationPath = new URL(page.url()).pathname;
      await chat.newChat(page.getByRole('banner'));
      await chat.drawerButton().click();
      await expect(chat.conversation(title, drawer)).toBeVisible();
      await chat.conversation(title, drawer).click();
      await expect(drawer).toBeHidden();
      await expect(page).toHaveURL((url) => url.pathname === conversationPath);
      await expect(chat.reply('OpenAI')).toBeVisible();
    });

    await test.step('a message search started in the drawer closes it when a hit opens', async () => {
      const conversationPath = new URL(page.url()).pathname;
      await chat.newChat(page.getByRole('banner'));
      await chat.drawerButton().click();
      await drawer.getByRole('button', { name: /Search messages/ }).click();
      const search = page.getByRole('dialog', { name: 'Search messages' });
      await search.getByRole('combobox').fill(title.split(' ').at(-1) ?? title);
      await search.getByRole('option').filter({ hasText: 'You:' }).first().click();
      await expect(search).toBeHidden();
      await expect(drawer).toBeHidden();
      await expect(page).toHaveURL((url) => url.pathname === conversationPath);
      const row = chat.messageList().locator('[data-highlighted="true"]');
      await expect(row).toContainText(title);
      await expect(row).toBeFocused();
    });

    const renamed = `${title} renamed`;
    await test.step('rename it in the drawer', async () => {
      await chat.drawerButton().click();
      await chat.rename(title, renamed, drawer);
      await expect(chat.conversation(renamed, drawer)).toBeVisible();
      await expect(chat.conversation(title, drawer)).toHaveCount(0);
      await expect(page.getByRole('heading', { name: renamed })).toBeAttached();
    });

    await test.step('delete it in the drawer; it is gone after a reload', async () => {
      await expect(drawer).toBeVisible();
      await chat.remove(renamed, drawer);
      await expect(page).toHaveURL((url) => url.pathname === '/chat');
      await expect(drawer).toBeVisible();
      await expect(drawer.getByText('No conversations yet.')).toBeVisible();
      await expect(chat.conversation(renamed, drawer)).toHaveCount(0);
      await page.reload();
      await chat.drawerButton().click();
      await expect(drawer.getByText('No conversations yet.')).toBeVisible();
      await expect(chat.conversation(renamed, drawer)).toHaveCount(0);
    });
  });
});

test('a message sent offline is kept as "Not sent", and Retry sends it once back online', async ({
  page,
  context,
  signedInUser: _signedIn,
}) => {
  await saveKeyThroughApi(context.request, 'openai', 'sk-test-offline-0001');
  const chat = new ChatWorkspace(page);
  await chat.goto();
  await chat.startChat('Before the tunnel');
  const text = uniqueWord('Are you there after the tunnel ');

  await test.step('offline, the chat says so and keeps what is sent as "Not sent"', async () => {
    await context.setOffline(true);
    await expect(chat.pane().getByText(offlineNotice)).toBeVisible();
    await chat.send(text);
    const unsent = chat.notSent();
    await expect(unsent).toHaveCount(1);
    await expect(unsent).toContainText(text);
    await expect(unsent).toContainText('Not sent.');
    await expect(unsent.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(unsent.getByRole('button', { name: 'Edit' })).toBeVisible();
    await expect(chat.replies()).toHaveCount(1);
  });

  await test.step('back online, Retry sends it and the reply arrives', async () => {
    await context.setOffline(false);
    await expect(chat.pane().getByText(offlineNotice)).toHaveCount(0);
    await chat.notSent().getByRole('button', { name: 'Retry' }).click();
    await expect(chat.reply('OpenAI').filter({ hasText: text })).toBeVisible();
    await expect(chat.notSent()).toHaveCount(0);
    await expect(chat.messageList().getByText('Not sent.')).toHaveCount(0);
  });

  await test.step('after a reload the message is there exactly once', async () => {
    await page.reload();
    await expect(chat.reply('OpenAI').filter({ hasText: text })).toBeVisible();
    await expect(chat.userMessages().filter({ hasText: text })).toHaveCount(1);
    await expect(chat.notSent()).toHaveCount(0);
  });
});

test('each conversation keeps its own draft through a reload', async ({
  page,
  context,
  signedInUser: _signedIn,
}) => {
  await saveKeyThroughApi(context.request, 'openai', 'sk-test-drafts-0001');
  const chat = new ChatWorkspace(page);
  const alpha = uniqueWord('Alpha ');
  const beta = uniqueWord('Beta ');
  await chat.goto();
  await chat.startChat(alpha);
  await chat.newChat();
  await chat.startChat(beta);

  await test.step('type a draft in A, then another in B', async () => {
    await chat.conversation(alpha).click();
    await expect(chat.userMessages().filter({ hasText: alpha })).toBeVisible();
    await chat.composer().fill('Half a thought about alpha');
    await chat.conversation(beta).click();
    await expect(chat.userMessages().filter({ hasText: beta })).toBeVisible();
    await expect(chat.composer()).toHaveValue('');
    await chat.composer().fill('Half a thought about beta\nwith a second line');
  });

  await test.step('after a reload each draft is back in its own conversation', async () => {
    await page.reload();
    await expect(chat.userMessages().filter({ hasText: beta })).toBeVisible();
    await expect(chat.composer()).toHaveValue('Half a thought about beta\nwith a second line');
    await chat.conversation(alpha).click();
    await expect(chat.userMessages().filter({ hasText: alpha })).toBeVisible();
    await expect(chat.composer()).toHaveValue('Half a thought about alpha');
    await chat.conversation(beta).click();
    await expect(chat.composer()).toHaveValue('Half a thought about beta\nwith a second line');
  });
});

test('a code block in a reply names its language and copies its code', async ({
  page,
  context,
  baseURL,
  signedInUser: _signedIn,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  await saveKeyThroughApi(context.request, 'openai', 'sk-test-code-0001');
  const chat = new ChatWorkspace(page);
  await chat.goto();
  await chat.startChat("Please run this:\n```python\nprint('hi')\n```\nThanks");

  const block = chat.reply('OpenAI').locator('.code-block');
  await expect(block).toHaveCount(1);
  await expect(block.getByTestId('code-language')).toHaveText('python');
  await expect(block.locator('pre')).toHaveText("print('hi')");
  await block.getByRole('button', { name: 'Copy python' }).click();
  await expect(block.getByRole('button', { name: 'Code copied' })).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("print('hi')");
});

test('Ctrl+K finds a word in an older conversation and opens it at that message', async ({
  page,
  context,
  signedInUser: _signedIn,
}) => {
  test.setTimeout(60_000);
  await saveKeyThroughApi(context.request, 'openai', 'sk-test-search-0001');
  const chat = new ChatWorkspace(page);
  const word = uniqueWord('zanzibar');
  const olderTitle = `Travel notes about ${word}`;

  const dialog = page.getByRole('dialog', { name: 'Search messages' });
  const olderPath =
    await test.step('an older conversation mentions the word, then moves on', async () => {
      await chat.goto();
      const olderPath = await chat.startChat(olderTitle);
      // Long replies after it push the message out of view when the conversation opens at its end.
      for (const tokens of [150, 151, 152]) {
        await chat.send(`More, please [sim:tokens ${tokens}]`);
        await expect(chat.replies().last()).toContainText(new RegExp(`tok${tokens}$`));
        await expect(chat.stopButton()).toHaveCount(0);
      }
      await expect(chat.userMessages().filter({ hasText: olderTitle })).not.toBeInViewport();
      await chat.newChat();
      await chat.startChat('Something else entirely');
      return olderPath;
    });

  await test.step('Ctrl+K opens the search; the hit has the word highlighted', async () => {
    await page.keyboard.press('Control+k');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('combobox').fill(word);
    const hit = dialog
      .getByRole('option')
      .filter({ hasText: olderTitle })
      .filter({ hasText: 'You:' });
    await expect(hit).toBeVisible();
    await expect(hit.locator('mark')).toHaveText(word);
    await hit.click();
    await expect(dialog).toBeHidden();
  });

  await test.step('the conversation opens with the message in view and highlighted', async () => {
    await expect(page).toHaveURL(
      (url) =>
        url.pathname === olderPath && /^[0-9a-f-]{36}$/.test(url.searchParams.get('message') ?? ''),
    );
    const messageId = new URL(page.url()).searchParams.get('message') ?? '';
    const row = chat.messageList().locator(`[data-row-id="${messageId}"]`);
    await expect(row).toContainText(olderTitle);
    await expect(row).toHaveAttribute('data-highlighted', 'true');
    await expect(row).toBeInViewport();
    await expect(row).toBeFocused();
  });

  await test.step('the sidebar button opens the search again with the same words', async () => {
    await chat
      .sidebar()
      .getByRole('button', { name: /Search messages/ })
      .click();
    await expect(dialog.getByRole('combobox')).toHaveValue(word);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
});

test('regenerated answers keep every version, and the chosen one survives a reload', async ({
  page,
  context,
  signedInUser: _signedIn,
}) => {
  await saveKeyThroughApi(context.request, 'openai', 'sk-test-versions-0001');
  await saveKeyThroughApi(context.request, 'anthropic', 'sk-ant-test-versions-0002');
  await saveKeyThroughApi(context.request, 'gemini', 'gemini-test-versions-0003');
  const chat = new ChatWorkspace(page);
  const version = chat.replies().getByTestId('answer-version');
  await chat.goto();
  await chat.chooseProvider('OpenAI');
  await chat.startChat('Tell me a short story');
  await expect(chat.replies()).toHaveCount(1);

  await test.step('regenerate with Anthropic, then with Gemini', async () => {
    await chat.chooseProvider('Anthropic');
    await chat.regenerate(chat.replies().last());
    await expect(chat.reply('Anthropic')).toBeVisible();
    await expect(version).toHaveText('2 / 2');
    await chat.chooseProvider('Gemini');
    await chat.regenerate(chat.replies().last());
    await expect(chat.reply('Gemini')).toBeVisible();
    await expect(version).toHaveText('3 / 3');
    await expect(chat.replies()).toHaveCount(1);
  });

  await test.step('Previous version shows the Anthropic answer again', async () => {
    await chat.replies().getByRole('button', { name: 'Previous version' }).click();
    await expect(chat.reply('Anthropic')).toBeVisible();
    await expect(version).toHaveText('2 / 3');
    await expect(chat.reply('Gemini')).toHaveCount(0);
  });

  await test.step('after a reload the chosen version is still the one shown', async () => {
    await page.reload();
    await expect(chat.reply('Anthropic')).toBeVisible();
    await expect(version).toHaveText('2 / 3');
    await expect(chat.replies()).toHaveCount(1);
  });
});

test('a system prompt is saved, shown as set, and sent to the model with every message', async ({
  page,
  context,
  signedInUser: _signedIn,
}) => {
  await saveKeyThroughApi(context.request, 'openai', 'sk-test-pirate-0001');
  const chat = new ChatWorkspace(page);
  const prompt = 'Always answer like a pirate.';
  const question = uniqueWord('Where is the treasure ');
  await chat.goto();
  await chat.chooseProvider('OpenAI');

  await test.step('save the system prompt from the button beside the model picker', async () => {
    await expect(chat.systemPromptButton()).toHaveAttribute('aria-pressed', 'false');
    await chat.systemPromptButton().click();
    const dialog = chat.systemPromptDialog();
    await dialog.getByLabel('Instructions for the model').fill(prompt);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(chat.systemPromptButton()).toHaveAttribute('aria-pressed', 'true');
    await expect(chat.systemPromptButton()).toHaveAttribute('title', 'System prompt (set)');
  });

  await test.step('the provider receives it with the message', async () => {
    await chat.startChat(question);
    const sent = (await providerSimRequests())
      .map((request) => JSON.stringify(request.body))
      .filter((body) => body.includes(question));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain(prompt);
  });

  await test.step('after a reload the dialog shows the saved prompt', async () => {
    await page.reload();
    await expect(chat.reply('OpenAI')).toBeVisible();
    await expect(chat.systemPromptButton()).toHaveAttribute('aria-pressed', 'true');
    await chat.systemPromptButton().click();
    await expect(chat.systemPromptDialog().getByLabel('Instructions for the model')).toHaveValue(
      prompt,
    );
  });
});

test('a reply refused for a bad key links to the API keys page, and Retry works once it is replaced', async ({
  page,
  context,
  signedInUser: _signedIn,
}) => {
  await saveKeyThroughApi(context.request, 'openai', 'sk-invalid-e2e-0001');
  const chat = new ChatWorkspace(page);
  const keys = new KeysPage(page);
  const question = uniqueWord('Does my key work ');
  await chat.goto();
  await chat.chooseProvider('OpenAI');

  const failure = chat.replies().getByRole('alert');
  const conversationPath = await test.step('the reply fails and says why', async () => {
    await chat.send(question);
    await expect(page).toHaveURL(conversationUrl);
    await expect(failure).toContainText(
      'OpenAI rejected the API key. Check it on the API keys page.',
    );
    await expect(failure.getByRole('button', { name: 'Retry' })).toBeVisible();
    return new URL(page.url()).pathname;
  });

  await test.step('follow the link and replace the key', async () => {
    await failure.getByRole('link', { name: 'Open API keys' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/copy-api-keys');
    await keys.saveKey('OpenAI', 'sk-test-fixed-0002');
  });

  await test.step('back in the conversation, Retry brings the reply', async () => {
    await page.goBack();
    await expect(page).toHaveURL((url) => url.pathname === conversationPath);
    await expect(failure).toContainText('OpenAI rejected the API key.');
    await failure.getByRole('button', { name: 'Retry' }).click();
    await expect(chat.reply('OpenAI')).toContainText(`You said: "${question}"`);
    await expect(failure).toHaveCount(0);
    await page.reload();
    await expect(chat.reply('OpenAI')).toContainText(`You said: "${question}"`);
    await expect(failure).toHaveCount(0);
  });
});

test('starting one chat more than the limit allows keeps the text and says when to try again', async ({
  page,
  context,
  signedInUser: _signedIn,
}) => {
  const limit = rateLimitWindows.conversation_create.points;
  test.setTimeout(180_000);
  await saveKeyThroughApi(context.request, 'openai', 'sk-test-limit-0001');
  const chat = new ChatWorkspace(page);
  await chat.goto();

  await test.step(`start ${limit} chats, each from New chat`, async () => {
    for (let n = 1; n <= limit; n++) {
      if (n > 1) await chat.newChat();
      await chat.send(`Chat number ${n} [sim:tokens 1]`);
      // The chat is created once the URL is its own. Its reply is not waited for: only creating
      // counts against this limit, and all of them must fall inside one minute.
      await expect(page).toHaveURL(conversationUrl);
    }
  });

  const text = uniqueWord('One chat too many ');
  await test.step('one more is held back, with its text kept in the box', async () => {
    await chat.newChat();
    await chat.send(text);
    const notice = chat.pane().getByTestId('rate-limit-notice');
    const [before, after] = messages.rateLimit.operation('Creating a chat', 987).split('987');
    await expect(notice).toContainText(before!);
    await expect(notice).toContainText(after!);
    await expect(notice).toContainText('Your message stays in the box.');
    await expect(chat.composer()).toHaveValue(text);
    await expect(page).toHaveURL((url) => url.pathname === '/chat');
  });
});
