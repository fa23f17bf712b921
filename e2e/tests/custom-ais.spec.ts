import { randomBytes } from 'node:crypto';
import { ChatPage } from '../pages/chat-page.ts';
import { CustomAisPage } from '../pages/custom-ais-page.ts';
import { saveKeyThroughApi } from '../support/api-keys.ts';
import { expect, test } from '../support/fixtures.ts';
import { providerSimRequests } from '../support/provider-sim.ts';

/** The provider simulator's requests whose body mentions `marker`, oldest first. */
const simRequestsWith = async (marker: string) =>
  (await providerSimRequests()).filter((request) => JSON.stringify(request.body).includes(marker));

test('a new user creates a custom AI, starts a chat with it from a starter, and keeps talking to it after a reload', async ({
  page,
  context,
  signedInUser: _signedIn,
}) => {
  test.setTimeout(90_000);
  const customAis = new CustomAisPage(page);
  const chat = new ChatPage(page);
  const marker = randomBytes(4).toString('hex');
  const instructions = `Always answer like a pirate. Ship ${marker}.`;
  const starter = `Teach me about verbs (${marker})`;
  // The chat's own provider stays OpenAI: only the custom AI's provider has a key.
  await saveKeyThroughApi(context.request, 'anthropic', 'sk-ant-e2e-custom-ai-0001');

  await test.step('create a custom AI from the empty page', async () => {
    await customAis.goto();
    await expect(page.getByText('No custom AIs yet')).toBeVisible();
    await customAis.create({
      name: 'Pirate tutor',
      avatar: '🦜',
      instructions,
      provider: 'Anthropic',
      model: 'Claude Haiku 4.5',
      temperature: '0.2',
      starters: [starter],
    });
    const card = customAis.card('Pirate tutor');
    await expect(card).toContainText('Anthropic · Claude Haiku 4.5');
    await expect(card).toContainText('1 starter');
  });

  await test.step('"Start a chat" opens a new chat with it, showing its starters', async () => {
    await customAis.card('Pirate tutor').getByRole('link', { name: 'Start a chat' }).click();
    await expect(page).toHaveURL(/\/chat$/);
    await expect(page.getByRole('heading', { name: 'Pirate tutor' })).toBeVisible();
    await expect(page.getByLabel('Provider', { exact: true })).toHaveValue(/^custom-ai:/);
  });

  await test.step('a starter is sent, and the custom AI answers with its provider and model', async () => {
    await page
      .getByRole('list', { name: 'Conversation starters' })
      .getByRole('button', { name: starter })
      .click();
    await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    await chat.waitForReplyTo(starter);
    const reply = chat.lastReply();
    await expect(reply).toContainText(
      `Hello from the Anthropic simulator (claude-haiku-4-5). You said: "${starter}"`,
    );
    await expect(reply.locator('p').first()).toHaveText(
      /^🦜Pirate tutor· Anthropic · claude-haiku-4-5$/,
    );
    const [sent] = await simRequestsWith(starter);
    expect(sent?.provider).toBe('anthropic');
    expect(sent?.body).toMatchObject({ model: 'claude-haiku-4-5', temperature: 0.2 });
    expect(JSON.stringify(sent?.body)).toContain(instructions);
  });

  await test.step('after a reload the conversation still talks to the custom AI', async () => {
    await page.reload();
    await expect(chat.composer()).toBeVisible();
    await expect(page.getByLabel('Provider', { exact: true })).toHaveValue(/^custom-ai:/);
    await expect(chat.composer()).toHaveAttribute('placeholder', 'Message Pirate tutor…');
    const followUp = `And nouns? (${marker})`;
    await chat.send(followUp);
    await chat.waitForReplyTo(followUp);
    await expect(chat.lastReply()).toContainText(
      `Hello from the Anthropic simulator (claude-haiku-4-5). You said: "${followUp}"`,
    );
    await expect(chat.lastReply()).toContainText('Pirate tutor');
    const [again] = await simRequestsWith(followUp);
    expect(JSON.stringify(again?.body)).toContain(instructions);
  });
});
