import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { signInRedirect } from '../../packages/shared/src/routes.ts';
import { signUpThroughApi } from '../support/accounts.ts';
import { saveKeyThroughApi } from '../support/api-keys.ts';
import { baseURL } from '../support/env.ts';
import { expect, pathAndSearch, test } from '../support/fixtures.ts';
import { openAsSuperAdmin } from '../support/super-admin.ts';
import { newTestUser } from '../support/users.ts';

/** A title no other test's scenario or cookbook entry has. */
const uniqueTitle = (prefix: string) => `${prefix} ${randomBytes(4).toString('hex')}`;

/** A duration as the columns show it: "850 ms", "1.4 s". */
const duration = /\d+(\.\d)? (ms|s)\b/;

/** The scenario form (/scenarios/new, /scenarios/:id) and the run page's setup. */
class ScenarioSetup {
  constructor(private readonly page: Page) {}

  async pick(n: number, provider: string, model: string) {
    await this.page.getByLabel(`Provider of model ${n}`).selectOption({ label: provider });
    await this.page.getByLabel(`Model ${n}`, { exact: true }).selectOption({ label: model });
  }

  async addModel() {
    await this.page.getByRole('button', { name: 'Add a model' }).click();
  }

  estimate() {
    return this.page.getByRole('table', { name: 'Estimated cost per model' });
  }
}

/** The run page's columns, progress and per-column actions. */
class RunColumnsView {
  constructor(private readonly page: Page) {}

  column(name: string): Locator {
    return this.page.getByRole('list', { name: 'Answers' }).getByRole('listitem', { name });
  }

  progress() {
    return this.page.getByRole('status').filter({ hasText: /^(Running|Done|Stopped|Starting)/ });
  }

  async expectAnswered(name: string) {
    const column = this.column(name);
    await expect(column).toHaveAttribute('data-status', 'done');
    await expect(column).toContainText('You said:');
    for (const figure of ['First token', 'Total time', 'Input tokens', 'Output tokens', 'Cost']) {
      await expect(column.getByRole('term').filter({ hasText: figure })).toBeVisible();
    }
    const value = (label: string) =>
      column.getByRole('term').filter({ hasText: label }).locator('+ dd');
    await expect(value('First token')).toHaveText(duration);
    await expect(value('Total time')).toHaveText(duration);
    await expect(value('Input tokens')).toHaveText(/^\d[\d,]*$/);
    await expect(value('Output tokens')).toHaveText(/^\d[\d,]*$/);
    await expect(value('Cost')).toHaveText(/^\$\d/);
  }
}

const models = {
  openai: 'OpenAI · GPT-5 mini',
  anthropic: 'Anthropic · Claude Haiku 4.5',
  gemini: 'Gemini · Gemini 1.5 Flash',
  deepseek: 'DeepSeek · DeepSeek Chat',
} as const;

const seriousAxeViolations = async (page: Page) => {
  const found: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveClass(new RegExp(`(^|\\s)${theme}(\\s|$)`));
    const results = await new AxeBuilder({ page }).analyze();
    for (const v of results.violations) {
      if (v.impact === 'serious' || v.impact === 'critical') {
        found.push(`${theme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }
    }
  }
  return found;
};

test('a scenario runs on four models side by side, is rated and kept, and reopens from its history', async ({
  page,
  context,
  signedInUser: _user,
}) => {
  test.setTimeout(90_000);
  await saveKeyThroughApi(context.request, 'openai', 'sk-test-scenarios-0001');
  await saveKeyThroughApi(context.request, 'anthropic', 'sk-ant-test-scenarios-0002');
  await saveKeyThroughApi(context.request, 'gemini', 'gemini-test-scenarios-0003');
  await saveKeyThroughApi(context.request, 'deepseek', 'sk-test-scenarios-0004');
  const setup = new ScenarioSetup(page);
  const run = new RunColumnsView(page);
  const title = uniqueTitle('Tea or coffee');
  let scenarioPath = '';

  await test.step('an empty list explains scenarios and offers to make one', async () => {
    await page.goto('/scenarios');
    await expect(page.getByRole('heading', { level: 1, name: 'Scenarios' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No scenarios yet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse the cookbook' }).first()).toBeVisible();
    await expect(page.getByText('Sample figures to show the idea')).toBeVisible();
    await page.getByRole('link', { name: 'New scenario' }).first().click();
    await expect(page).toHaveURL((url) => url.pathname === '/scenarios/new');
  });

  await test.step('a new scenario with a variable and four models', async () => {
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Prompt', { exact: true }).fill('Compare {{drink|tea}} and coffee.');
    await expect(page.getByLabel('{{drink}}')).toHaveAttribute('placeholder', 'tea');
    await setup.pick(1, 'OpenAI', 'GPT-5 mini');
    await setup.pick(2, 'Anthropic', 'Claude Haiku 4.5');
    await setup.addModel();
    await setup.pick(3, 'Gemini', 'Gemini 1.5 Flash');
    await setup.addModel();
    await setup.pick(4, 'DeepSeek', 'DeepSeek Chat');
    await expect(setup.estimate().getByRole('row')).toHaveCount(5);
    await expect(page.getByText(/^Estimated cost: ≈ \$/)).toBeVisible();
    await page.getByRole('button', { name: 'Create scenario' }).click();
    await expect(page).toHaveURL((url) => /^\/scenarios\/[0-9a-f-]{36}$/.test(url.pathname));
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    scenarioPath = new URL(page.url()).pathname;
    await expect(page.getByText('No runs yet.')).toBeVisible();
  });

  let runId = '';
  await test.step('Run streams four columns, each with its timings, tokens and cost', async () => {
    await page.getByRole('link', { name: 'Run', exact: true }).click();
    await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
    await expect(page.getByText(/^Estimated cost: ≈ \$/)).toBeVisible();
    await page.getByRole('button', { name: 'Run on 4 models' }).click();
    await expect(page).toHaveURL((url) => url.searchParams.has('run'));
    await expect(run.progress()).toHaveText('Done: 4 of 4 models answered.', { timeout: 20_000 });
    for (const name of Object.values(models)) await run.expectAnswered(name);
    await expect(run.column(models.openai)).toContainText('You said: "Compare tea and coffee."');
    runId = new URL(page.url()).searchParams.get('run') ?? '';
  });

  const openaiText = await run.column(models.openai).locator('[data-role="answer"]').innerText();

  await test.step('a column is rated, another picked as winner, one saved as a test case', async () => {
    await run.column(models.openai).getByRole('button', { name: '4 stars' }).click();
    await expect(
      run.column(models.openai).getByRole('button', { name: '4 stars' }),
    ).toHaveAttribute('aria-pressed', 'true');
    await run.column(models.anthropic).getByRole('button', { name: 'Pick as winner' }).click();
    await expect(
      run.column(models.anthropic).getByRole('button', { name: 'Winner' }),
    ).toHaveAttribute('aria-pressed', 'true');
    await run.column(models.gemini).getByRole('button', { name: 'Save as test case' }).click();
    await expect(page.getByText('Saved as a test case')).toBeVisible();
    const cases = await context.request.get('/rest/v1/test-cases');
    expect(cases.status()).toBe(200);
    const body = (await cases.json()) as { items: { provider: string | null; prompt: string }[] };
    expect(body.items).toContainEqual(
      expect.objectContaining({ provider: 'gemini', prompt: 'Compare tea and coffee.' }),
    );
  });

  await test.step("the run reopens from the scenario's history with the same results", async () => {
    await page.goto(scenarioPath);
    const history = page.getByRole('list', { name: 'Runs' });
    await expect(history.getByRole('link')).toHaveCount(1);
    await expect(history).toContainText(`Winner: ${models.anthropic}`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await history.getByRole('link').click();
    await expect(page).toHaveURL(
      (url) => pathAndSearch(url) === `/scenario-proxy-plus?run=${runId}`,
    );
    await expect(run.progress()).toHaveText('Done: 4 of 4 models answered.');
    for (const name of Object.values(models)) await run.expectAnswered(name);
    await expect(run.column(models.openai).locator('[data-role="answer"]')).toHaveText(openaiText);
    await expect(
      run.column(models.openai).getByRole('button', { name: '4 stars' }),
    ).toHaveAttribute('aria-pressed', 'true');
    await expect(
      run.column(models.anthropic).getByRole('button', { name: 'Winner' }),
    ).toBeVisible();
  });

  await test.step('the run page with its columns has no serious axe violation either', async () => {
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

test('a model without a key fails in its own column while the others answer', async ({
  page,
  context,
  signedInUser: _user,
}) => {
  await saveKeyThroughApi(context.request, 'openai', 'sk-test-scenarios-nokey-0001');
  const setup = new ScenarioSetup(page);
  const run = new RunColumnsView(page);

  await page.goto('/scenario-proxy-plus');
  await expect(page.getByRole('heading', { level: 2, name: 'Set up a run' })).toBeVisible();
  await page.getByLabel('Prompt', { exact: true }).fill('Say hello to the scenarios page.');
  await setup.pick(1, 'OpenAI', 'GPT-5 mini');
  await setup.pick(2, 'Perplexity', 'Sonar');
  await expect(page.getByText('No Perplexity key: this column will fail.')).toBeVisible();
  await page.getByRole('button', { name: 'Run on 2 models' }).click();

  await expect(run.progress()).toHaveText('Done: 1 of 2 models answered, 1 failed.', {
    timeout: 20_000,
  });
  await run.expectAnswered(models.openai);
  const perplexity = run.column('Perplexity · Sonar');
  await expect(perplexity).toHaveAttribute('data-status', 'failed');
  await expect(perplexity).toContainText(/Perplexity/);
  await expect(perplexity.getByRole('link', { name: 'Open API keys' })).toHaveAttribute(
    'href',
    '/copy-api-keys',
  );
});

test('a signed-out visitor uses a published cookbook scenario, signs in, and lands on the copy', async ({
  browser,
  page,
  request,
  authPage,
}) => {
  const title = uniqueTitle('Cookbook code review');
  const admin = await openAsSuperAdmin(browser, '/admin');
  const published = await admin.request.post('/rest/v1/admin/scenarios', {
    data: {
      title,
      description: 'Ask several models for a careful review of one diff.',
      category: 'Code',
      steps: ['Read the diff below.', 'List the three biggest risks.'],
      published: true,
    },
    headers: { origin: baseURL() },
  });
  expect(published.status(), await published.text()).toBe(201);
  const { id: entryId } = (await published.json()) as { id: string };
  await admin.context().close();
  const user = newTestUser('cookbook');
  await signUpThroughApi(request, user);

  await page.goto('/scenarios-cookbook');
  const card = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: title }) });
  await expect(card).toContainText('Code');
  await expect(card).toContainText('Read the diff below.');
  expect(await seriousAxeViolations(page)).toEqual([]);

  await test.step('the Code chip and the search both keep it in view', async () => {
    await page
      .getByRole('group', { name: 'Category' })
      .getByRole('button', { name: 'Code' })
      .click();
    await expect(card).toBeVisible();
    await page.getByLabel('Search the cookbook').fill(title);
    await expect(
      page.getByRole('list', { name: 'Cookbook scenarios' }).getByRole('listitem'),
    ).toHaveCount(1);
  });

  await card.getByRole('button', { name: /^Use this scenario/ }).click();
  await expect(page).toHaveURL(
    (url) => pathAndSearch(url) === signInRedirect(`/scenarios-cookbook?use=${entryId}`),
  );
  await authPage.signIn(user.email, user.password);

  await expect(page).toHaveURL((url) => /^\/scenarios\/[0-9a-f-]{36}$/.test(url.pathname));
  expect(new URL(page.url()).pathname).not.toBe(`/scenarios/${entryId}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByLabel('Prompt', { exact: true })).toHaveValue(/Read the diff below\./);
  const mine = await page.request.get('/rest/v1/scenarios');
  const list = (await mine.json()) as { items: { title: string }[] };
  expect(list.items.map((s) => s.title)).toEqual([title]);
});
