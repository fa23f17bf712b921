import { makeDocx, makePdf } from '../../apps/server/src/knowledge/testing/fixtures.ts';
import { ChatPage } from '../pages/chat-page.ts';
import { KnowledgeBasePage } from '../pages/knowledge-base-page.ts';
import { saveKeyThroughApi } from '../support/api-keys.ts';
import { expect, test } from '../support/fixtures.ts';

// Real files, built at test time: a two-page PDF whose second page holds the answer, a Word
// document with headings, and a Markdown file.
const pdfPages = [
  'Welcome to the Riverside office. This handbook covers the building, the kitchen and the people who keep them running.',
  'The office aquarium holds exactly 37 zebrafish. Feeding happens at nine each morning; ask Priya before adding any new fish to the tank.',
];

const files = async () => [
  { name: 'handbook.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makePdf(pdfPages)) },
  {
    name: 'parking.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: Buffer.from(
      await makeDocx([
        { style: 'Heading1', text: 'Parking' },
        {
          text: 'Visitors park in the north lot behind building C. The barrier opens with the visitor code from reception.',
        },
        { style: 'Heading2', text: 'Bicycles' },
        { text: 'Bicycle racks stand by the south entrance.' },
      ]),
    ),
  },
  {
    name: 'kitchen.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from(
      '# Kitchen\n\nThe coffee machine is descaled on Fridays.\n\n## Fridge\n\nLabel your food with your name and the date.\n',
    ),
  },
];

test('a new user builds a knowledge base and chats with answers that cite it', async ({
  page,
  context,
  signedInUser: _signedIn,
}) => {
  test.setTimeout(120_000);
  const knowledge = new KnowledgeBasePage(page);
  const chat = new ChatPage(page);
  // Embeddings (and replies) come from the provider simulator, with this key.
  await saveKeyThroughApi(context.request, 'openai', 'sk-e2e-knowledge-0001');

  await test.step('create a knowledge base from the empty page', async () => {
    await knowledge.goto();
    await expect(page.getByText('No knowledge bases yet')).toBeVisible();
    await page.getByRole('button', { name: 'New knowledge base' }).first().click();
    // With an OpenAI key, the base is embedded with OpenAI's model unless the user says otherwise.
    await expect(knowledge.embeddingModel()).toHaveValue('openai:text-embedding-3-small');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await knowledge.create('Office handbook', 'Everything about the Riverside office');
  });

  await test.step('upload a PDF, a docx and a Markdown file and watch them reach "Ready"', async () => {
    await knowledge.upload(await files());
    const results = knowledge.uploadResults();
    await expect(results.getByRole('listitem')).toHaveCount(3);
    await expect(results.locator('[data-outcome="queued"]')).toHaveCount(3);
    for (const name of ['handbook.pdf', 'parking.docx', 'kitchen.md']) {
      await expect(knowledge.document(name).getByTestId('document-status')).toHaveText('Ready', {
        timeout: 60_000,
      });
    }
    await expect(knowledge.document('handbook.pdf')).toContainText('2 pages');
  });

  await test.step('the retrieval inspector finds the PDF passage first', async () => {
    const ranked = await knowledge.inspect('How many zebrafish are in the aquarium?');
    const first = ranked.getByRole('listitem').first();
    await expect(first).toContainText('handbook.pdf');
    await expect(first).toContainText('Page 2');
    await expect(first.getByTestId('score-fused').getByRole('cell').first()).toHaveText('#1');
  });

  await test.step('ask the chat a question answered in the PDF and open its citation', async () => {
    await chat.goto();
    await chat.chooseProvider('OpenAI');
    await chat.attachKnowledgeBase('Office handbook');
    await chat.send('How many zebrafish live in the office aquarium?');
    await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    await chat.waitForReplyTo('How many zebrafish live in the office aquarium?');
    const source = chat.lastSources().getByRole('button', {
      name: /^Open source \d+: handbook\.pdf, Page 2$/,
    });
    await expect(source).toBeVisible();
    await source.click();
    const passage = page.getByRole('dialog', { name: 'handbook.pdf' });
    await expect(passage.getByText('Page 2', { exact: true })).toBeVisible();
    await expect(passage).toContainText('The office aquarium holds exactly 37 zebrafish.');
    await passage.getByRole('button', { name: 'Close' }).click();
    await expect(passage).toBeHidden();
  });

  const conversationUrl = page.url();

  await test.step('a question about parking cites the docx', async () => {
    await chat.send('Where do visitors park?');
    await chat.waitForReplyTo('Where do visitors park?');
    await expect(chat.lastSources()).toContainText('parking.docx');
  });

  await test.step('delete the docx and see it gone from later answers', async () => {
    await knowledge.goto();
    await knowledge.deleteDocument('parking.docx');
    await expect(knowledge.document('parking.docx')).toHaveCount(0);
    await page.reload();
    await expect(knowledge.document('handbook.pdf')).toBeVisible();
    await expect(knowledge.document('parking.docx')).toHaveCount(0);

    await page.goto(conversationUrl);
    await expect(chat.composer()).toBeVisible();
    await chat.send('Where do visitors park? Tell me again.');
    await chat.waitForReplyTo('Where do visitors park? Tell me again.');
    await expect(chat.lastSources()).toBeVisible();
    await expect(chat.lastSources()).not.toContainText('parking.docx');
    // The earlier reply keeps what it quoted; the passage itself is gone.
    const earlier = chat
      .pane()
      .getByRole('button', { name: /^Open source \d+: parking\.docx/ })
      .first();
    await earlier.click();
    await expect(page.getByRole('dialog', { name: 'parking.docx' })).toContainText(
      'This passage is no longer in the knowledge base.',
    );
  });
});
