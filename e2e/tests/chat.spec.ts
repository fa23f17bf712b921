import { keyMessages } from '../../packages/shared/src/messages.ts';
import { ChatPage } from '../pages/chat-page.ts';
import { KeysPage } from '../pages/keys-page.ts';
import { expect, test } from '../support/fixtures.ts';

test('a new user adds a key, chats with several providers, and manages conversations', async ({
  page,
  signedInUser: _signedIn,
}) => {
  test.setTimeout(90_000);
  const keys = new KeysPage(page);
  const chat = new ChatPage(page);

  await test.step('add an OpenAI key and test it', async () => {
    await keys.goto();
    await keys.testKey('OpenAI', 'sk-e2e-chat-0001');
    await expect(page.getByText(keyMessages.valid('OpenAI'))).toBeVisible();
    await keys.saveKey('OpenAI', 'sk-e2e-chat-0001');
    await keys.saveKey('Anthropic', 'sk-ant-e2e-0002');
    await keys.saveKey('Gemini', 'gemini-e2e-0003');
  });

  await test.step('chat with OpenAI and watch the reply stream', async () => {
    await chat.goto();
    await chat.chooseProvider('OpenAI');
    await chat.send('Plan a picnic [sim:tokens 80] [sim:delay-ms 40]');
    await expect(page.getByRole('button', { name: 'Stop the reply' })).toBeVisible();
    await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    await expect(chat.message(/tok80/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stop the reply' })).toHaveCount(0);
  });

  const conversationUrl = page.url();

  await test.step('the history is there after a reload', async () => {
    await page.reload();
    await expect(chat.message('Plan a picnic [sim:tokens 80] [sim:delay-ms 40]')).toBeVisible();
    await expect(chat.message(/tok80/)).toBeVisible();
  });

  await test.step('switch to Anthropic, Gemini and Ollama in the same conversation', async () => {
    for (const [name, label] of [
      ['Anthropic', 'Anthropic'],
      ['Gemini', 'Gemini'],
      ['Ollama', 'Ollama'],
    ] as const) {
      await chat.chooseProvider(name);
      await chat.send(`Hello ${name}`);
      await expect(chat.reply(label).last()).toBeVisible();
    }
    await expect(page).toHaveURL(conversationUrl);
  });

  await test.step('start a second conversation in the same list', async () => {
    await chat.goto();
    await chat.chooseProvider('Ollama');
    await chat.send('Second topic');
    await expect(chat.reply('Ollama')).toBeVisible();
    await expect(chat.conversation('Second topic')).toBeVisible();
    await expect(
      chat.conversation('Plan a picnic [sim:tokens 80] [sim:delay-ms 40]'),
    ).toBeVisible();
  });

  await test.step('no key is kept in the browser', async () => {
    const stored = await page.evaluate(() =>
      JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]),
    );
    for (const key of ['sk-e2e-chat-0001', 'sk-ant-e2e-0002', 'gemini-e2e-0003']) {
      expect(stored).not.toContain(key);
    }
  });

  await test.step('rename and delete a conversation', async () => {
    await chat.rename('Second topic', 'Renamed topic');
    await expect(chat.conversation('Renamed topic')).toBeVisible();
    await page.reload();
    await expect(chat.conversation('Renamed topic')).toBeVisible();
    await chat.remove('Renamed topic');
    await expect(chat.conversation('Renamed topic')).toHaveCount(0);
    await page.reload();
    await expect(
      chat.conversation('Plan a picnic [sim:tokens 80] [sim:delay-ms 40]'),
    ).toBeVisible();
    await expect(chat.conversation('Renamed topic')).toHaveCount(0);
  });
});
