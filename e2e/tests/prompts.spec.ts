import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ChatWorkspace } from '../pages/chat-workspace.ts';
import { saveKeyThroughApi } from '../support/api-keys.ts';
import { expect, test } from '../support/fixtures.ts';
import { providerSimRequests } from '../support/provider-sim.ts';

/** A word no other test writes, so lists and request logs find only ours. */
const uniqueWord = (prefix: string) => `${prefix}${randomBytes(4).toString('hex')}`;

test('a prompt with two variables is written, used from the chat with /, and counted', async ({
  page,
  context,
  signedInUser: _signedIn,
}) => {
  test.setTimeout(60_000);
  await saveKeyThroughApi(context.request, 'openai', 'sk-test-prompts-0001');
  const title = uniqueWord('Release notes ');
  const library = page.getByRole('list', { name: 'Your prompts' });
  const card = library.getByRole('listitem', { name: title });

  await test.step('write the prompt in the library; its variables are found', async () => {
    await page.goto('/prompts');
    await expect(page.getByRole('heading', { level: 1, name: 'Prompt library' })).toBeVisible();
    await expect(page.getByText('No prompts saved yet')).toBeVisible();
    await page.getByRole('button', { name: 'New prompt' }).first().click();
    const editor = page.getByRole('dialog', { name: 'New prompt' });
    await editor.getByLabel('Title').fill(title);
    await editor
      .getByLabel('Prompt', { exact: true })
      .fill('Write release notes for {{product}} in a {{tone|friendly}} tone.');
    await expect(editor.getByText(/Variables: product, tone \(default “friendly”\)/)).toBeVisible();
    await editor.getByLabel('Category').fill('Writing');
    await editor.getByRole('button', { name: 'Add prompt' }).click();
    await expect(editor).toBeHidden();
    await expect(card).toBeVisible();
    await expect(card.getByText('{{product}}', { exact: true })).toBeVisible();
    await expect(card.getByTestId('prompt-usage')).toHaveText('Not used yet');
  });

  const product = uniqueWord('Orbit');
  await test.step('in the chat, / lists it; Enter opens its form; the filled text is sent', async () => {
    const chat = new ChatWorkspace(page);
    await chat.goto();
    await chat.composer().fill('/release');
    const picker = page.getByRole('listbox', { name: 'Saved prompts' });
    await expect(picker.getByRole('option', { name: new RegExp(title) })).toBeVisible();
    await chat.composer().press('Enter');
    const form = page.getByRole('dialog', { name: `Fill in “${title}”` });
    await expect(form.getByLabel('tone')).toHaveValue('friendly');
    await form.getByLabel(/product/).fill(product);
    await form.getByLabel('tone').fill('formal');
    await expect(form.getByLabel('Preview')).toHaveText(
      `Write release notes for ${product} in a formal tone.`,
    );
    await form.getByRole('button', { name: 'Insert' }).click();
    await expect(form).toBeHidden();
    await expect(chat.composer()).toHaveValue(
      `Write release notes for ${product} in a formal tone.`,
    );
    await expect(chat.composer()).toBeFocused();
    await chat.startChat(`Write release notes for ${product} in a formal tone.`);
    const sent = (await providerSimRequests())
      .map((request) => JSON.stringify(request.body))
      .filter((body) => body.includes(product));
    expect(sent).toHaveLength(1);
  });

  await test.step('the library counts the use', async () => {
    await page.goto('/prompts');
    await expect(card.getByTestId('prompt-usage')).toHaveText(/^Used 1 time, last on /);
  });
});

test('an edited prompt keeps its versions, shows what changed, and restores one', async ({
  page,
  signedInUser: _signedIn,
}) => {
  const title = uniqueWord('Greeting ');
  const card = page.getByRole('list', { name: 'Your prompts' }).getByRole('listitem', {
    name: title,
  });
  await page.goto('/prompts');
  await page.getByRole('button', { name: 'New prompt' }).first().click();
  const editor = page.getByRole('dialog', { name: 'New prompt' });
  await editor.getByLabel('Title').fill(title);
  await editor.getByLabel('Prompt', { exact: true }).fill('Say hello to {{name}} warmly.');
  await editor.getByRole('button', { name: 'Add prompt' }).click();
  await expect(card).toBeVisible();

  await test.step('an edit saves version 2', async () => {
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: `Edit “${title}”` });
    await edit.getByLabel('Prompt', { exact: true }).fill('Say goodbye to {{name}} warmly.');
    await edit.getByRole('button', { name: 'Save a new version' }).click();
    await expect(edit).toBeHidden();
    await expect(card).toContainText('version 2');
    await expect(card).toContainText('Say goodbye to');
  });

  await test.step('versions show the change word by word, and version 1 comes back', async () => {
    await card.getByRole('button', { name: 'Versions' }).click();
    const versions = page.getByRole('dialog', { name: `Versions of “${title}”` });
    await expect(versions.locator('del')).toHaveText('hello');
    await expect(versions.locator('ins')).toHaveText('goodbye');
    await versions.getByRole('button', { name: 'Restore version 1' }).click();
    await expect(versions).toBeHidden();
    await expect(card).toContainText('version 3');
    await expect(card).toContainText('Say hello to');
  });
});

test('prompts are exported to a file and imported back, with refused rows listed', async ({
  page,
  signedInUser: _signedIn,
}, testInfo) => {
  const title = uniqueWord('Exported ');
  const list = page.getByRole('list', { name: 'Your prompts' });
  await page.goto('/prompts');
  await page.getByRole('button', { name: 'New prompt' }).first().click();
  const editor = page.getByRole('dialog', { name: 'New prompt' });
  await editor.getByLabel('Title').fill(title);
  await editor.getByLabel('Prompt', { exact: true }).fill('Summarise {{text}}.');
  await editor.getByLabel('Tags').fill('summary, short');
  await editor.getByRole('button', { name: 'Add prompt' }).click();
  await expect(list.getByRole('listitem', { name: title })).toBeVisible();

  const exported = await test.step('Export downloads every prompt as JSON', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^chorus-prompts-\d{4}-\d{2}-\d{2}\.json$/);
    const saved = testInfo.outputPath('prompts.json');
    await file.saveAs(saved);
    const body = JSON.parse(await readFile(saved, 'utf8')) as {
      format: string;
      prompts: { title: string; tags: string[] }[];
    };
    expect(body.format).toBe('chorus.prompts');
    expect(body.prompts).toEqual([expect.objectContaining({ title, tags: ['summary', 'short'] })]);
    return body;
  });

  await test.step('Import adds the good rows and names the refused ones', async () => {
    const file = {
      ...exported,
      prompts: [
        { ...exported.prompts[0], title: `${title} copy` },
        { title: '', content: 'No title here' },
        {
          title: 'Too many tags',
          content: 'x',
          tags: Array.from({ length: 30 }, (_, i) => `t${i}`),
        },
      ],
    };
    await page.getByLabel('Prompt export file to import').setInputFiles({
      name: 'prompts.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(file)),
    });
    const result = page.getByRole('dialog', { name: 'Import finished' });
    await expect(result).toContainText('1 prompt imported.');
    const refused = result.getByRole('list', { name: 'Refused rows' }).getByRole('listitem');
    await expect(refused).toHaveCount(2);
    await expect(refused.nth(0)).toContainText('Row 2');
    await expect(refused.nth(1)).toContainText('Row 3');
    await expect(refused.nth(1)).toContainText('20 tags');
    await result.getByRole('button', { name: 'Close' }).click();
    await expect(list.getByRole('listitem', { name: `${title} copy` })).toBeVisible();
  });
});
