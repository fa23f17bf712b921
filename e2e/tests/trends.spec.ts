import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { trendPresetQuestions } from '../../packages/shared/src/api/trends.ts';
import { sampleTrendStats } from '../../packages/shared/src/sample-stats.ts';
import { saveKeyThroughApi } from '../support/api-keys.ts';
import { expect, test } from '../support/fixtures.ts';
import { providerSimRequests } from '../support/provider-sim.ts';

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

/** /trends-proxy: the presets, the question, the provider and the streamed answer. */
class TrendsAskPage {
  constructor(private readonly page: Page) {}

  readonly answer = () => this.page.getByRole('region', { name: 'Answer' });

  readonly status = () => this.answer().getByRole('status');

  async askPreset(question: string) {
    await this.page
      .getByRole('group', { name: 'Preset questions' })
      .getByRole('button', { name: question })
      .click();
  }
}

test("a visitor sees the sample trends as a chart and a table, and this instance's counts", async ({
  page,
}) => {
  await page.goto('/trends');
  await expect(page.getByRole('heading', { level: 1, name: 'Trends' })).toBeVisible();
  await expect(page).toHaveTitle('Trends · Chorus');
  expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(
    /sample figures/,
  );

  const uses = page.getByRole('region', { name: 'Trending uses' });
  await expect(uses.getByText('Sample figures', { exact: true })).toBeVisible();
  await expect(uses.getByTestId('trends-sample-uses-chart')).toBeVisible();
  const rows = uses.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(sampleTrendStats.length + 1);
  await expect(rows.nth(1)).toHaveText(/Comparing models side by side\s*2,140\s*24%/);

  // Real aggregates: a list, or a plain statement that there is nothing yet (under 5 people).
  const prompts = page.getByRole('region', { name: 'Most-copied public prompts' });
  await expect(prompts).toBeVisible();
  await expect(page.getByText(/^Counted /)).toBeVisible();
  await expect(page.getByText(/Anything below 5 people is\s+hidden/)).toBeVisible();
  await page.getByRole('button', { name: 'Last 30 days' }).click();
  await expect(page.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(
    prompts.getByRole('listitem').or(prompts.getByText(/in the last 30 days yet\.$/)),
  ).not.toHaveCount(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await expect(page.getByRole('link', { name: 'Ask AI about these trends' })).toHaveAttribute(
    'href',
    '/trends-proxy',
  );
});

test('a signed-in user asks /trends-proxy a preset question and watches the answer stream in', async ({
  page,
  context,
  signedInUser: _user,
}) => {
  await saveKeyThroughApi(context.request, 'openai', 'sk-test-trends-0001');
  const ask = new TrendsAskPage(page);
  const question = trendPresetQuestions[0];
  const since = (await providerSimRequests()).at(-1)?.id ?? 0;

  await page.goto('/trends');
  await page.getByRole('link', { name: 'Ask AI about these trends' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/trends-proxy');
  await expect(page.getByRole('heading', { level: 1, name: 'Ask AI about trends' })).toBeVisible();
  await expect(page.getByLabel('Provider')).toHaveValue('');

  await ask.askPreset(question);
  await expect(ask.status()).toHaveText(/^(Waiting for the model…|Answering…|Done\.)$/);
  await expect(ask.status()).toHaveText('Done.', { timeout: 20_000 });
  await expect(ask.answer()).toContainText('Hello from the OpenAI simulator');
  await expect(ask.answer()).toContainText(`You said: "${question}"`);

  // The model was given the trend lists as context, through the caller's own key.
  const sent = (await providerSimRequests()).filter(
    (r) => r.id > since && JSON.stringify(r.body).includes(question),
  );
  expect(sent).toHaveLength(1);
  expect(JSON.stringify(sent[0]!.body)).toContain(sampleTrendStats[0]!.title);

  await test.step('a typed question to a chosen provider, then Ask again', async () => {
    const typed = `Which trend suits a support team? ${randomBytes(3).toString('hex')}`;
    await page.getByLabel('Provider').selectOption({ label: 'OpenAI' });
    await page.getByLabel('Your question').fill(typed);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await expect(ask.answer()).toContainText(`You said: "${typed}"`, { timeout: 20_000 });
    await expect(ask.status()).toHaveText('Done.');
    await ask.answer().getByRole('button', { name: 'Ask again' }).click();
    await expect(ask.status()).toHaveText('Done.', { timeout: 20_000 });
    await expect(ask.answer()).toContainText(`You said: "${typed}"`);
  });

  expect(await seriousAxeViolations(page)).toEqual([]);
});

test('without a key, /trends-proxy says so in plain words and links to the keys page', async ({
  page,
  signedInUser: _user,
}) => {
  const ask = new TrendsAskPage(page);
  await page.goto('/trends-proxy');
  await ask.askPreset(trendPresetQuestions[1]);
  const alert = ask.answer().getByRole('alert');
  await expect(alert).toContainText(/OpenAI/);
  await expect(ask.answer().getByRole('button', { name: 'Retry' })).toBeVisible();
  await alert.getByRole('link', { name: 'Open API keys' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/copy-api-keys');
});
