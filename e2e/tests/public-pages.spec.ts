import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from '@playwright/test';
import { signInRedirect } from '../../packages/shared/src/routes.ts';
import { signUpThroughApi } from '../support/accounts.ts';
import { baseURL } from '../support/env.ts';
import { expect, pathAndSearch, test } from '../support/fixtures.ts';
import { openAsSuperAdmin } from '../support/super-admin.ts';
import { newTestUser } from '../support/users.ts';

/** A word no other test writes, so searches and lists find only ours. */
const uniqueWord = (prefix: string) => `${prefix}${randomBytes(4).toString('hex')}`;

type Seeded = { promptId: string; scenarioId: string };

/** Publishes a prompt and a cookbook scenario through the admin API, both featured. */
const seedLibrary = async (
  browser: Browser,
  {
    word,
    promptTitle,
    scenarioTitle,
  }: { word: string; promptTitle: string; scenarioTitle: string },
): Promise<Seeded> => {
  const admin = await openAsSuperAdmin(browser, '/admin');
  const headers = { origin: baseURL() };
  const prompt = await admin.request.post('/rest/v1/admin/prompts', {
    data: {
      title: promptTitle,
      description: `A polite follow-up after a meeting (${word}).`,
      category: 'Writing',
      content: `Write a short, polite follow-up to {{name}} about ${word}.`,
      tags: [word, 'email'],
      published: true,
      featured: true,
    },
    headers,
  });
  expect(prompt.status(), await prompt.text()).toBe(201);
  const scenario = await admin.request.post('/rest/v1/admin/scenarios', {
    data: {
      title: scenarioTitle,
      description: `Ask several models to review one diff (${word}).`,
      category: 'Code',
      steps: ['Read the diff below.', 'List the three biggest risks.'],
      published: true,
      featured: true,
    },
    headers,
  });
  expect(scenario.status(), await scenario.text()).toBe(201);
  const seeded = {
    promptId: ((await prompt.json()) as { id: string }).id,
    scenarioId: ((await scenario.json()) as { id: string }).id,
  };
  await admin.context().close();
  return seeded;
};

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

const metaDescription = (page: Page) =>
  page.locator('meta[name="description"]').getAttribute('content');

/** /discover: the filters, the result cards and Load more. */
class DiscoverPage {
  constructor(private readonly page: Page) {}

  readonly results = () => this.page.getByRole('list', { name: 'Results' });

  /** The result cards (each card holds a list of its tags too). */
  readonly cards = () => this.results().locator(':scope > li');

  card(title: string): Locator {
    return this.results().getByRole('listitem', { name: title });
  }

  async search(words: string) {
    await this.page.getByLabel('Search prompts and scenarios').fill(words);
    await expect(this.page).toHaveURL((url) => url.searchParams.get('q') === words);
  }

  async kind(label: 'All' | 'Prompts' | 'Scenarios') {
    await this.page
      .getByRole('group', { name: 'Kind' })
      .getByRole('button', { name: label, exact: true })
      .click();
  }
}

test('a visitor finds live content on /home and /discover: featured entries, providers, search and filters', async ({
  browser,
  page,
}) => {
  test.setTimeout(60_000);
  const word = uniqueWord('orbit');
  const promptTitle = `Follow-up email ${word}`;
  const scenarioTitle = `Review a diff ${word}`;
  await seedLibrary(browser, { word, promptTitle, scenarioTitle });
  const discover = new DiscoverPage(page);

  await test.step('/home shows what Chorus does with the featured entries and the providers', async () => {
    await page.goto('/home');
    await expect(
      page.getByRole('heading', {
        level: 1,
        name: 'Every AI model your team uses, in one workspace',
      }),
    ).toBeVisible();
    await expect(page).toHaveTitle('Home · Chorus');
    expect(await metaDescription(page)).toMatch(/^Chorus is one workspace for AI models/);
    await expect(
      page.getByRole('list', { name: 'Library prompts' }).getByRole('link', { name: promptTitle }),
    ).toBeVisible();
    await expect(
      page
        .getByRole('list', { name: 'Cookbook scenarios' })
        .getByRole('link', { name: scenarioTitle }),
    ).toBeVisible();
    // The providers an admin left on, as the server says (public: no sign-in needed).
    const enabled = await page.request.post('/functions/v1/get-enabled-providers');
    expect(enabled.status()).toBe(200);
    const { providers: on } = (await enabled.json()) as { providers: string[] };
    await expect(page.getByRole('list', { name: 'Providers' }).getByRole('listitem')).toHaveCount(
      on.length,
    );
    await expect(page.getByRole('link', { name: 'Create your account' })).toHaveAttribute(
      'href',
      '/auth?mode=sign-up',
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  await test.step("a featured prompt's card opens it in /discover", async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page
      .getByRole('list', { name: 'Library prompts' })
      .getByRole('link', { name: promptTitle })
      .click();
    await expect(page).toHaveURL((url) => url.pathname === '/discover');
    await expect(page).toHaveTitle('Discover · Chorus');
    const card = discover.card(promptTitle);
    await expect(card).toBeVisible();
    await expect(card).toContainText('Prompt');
    await expect(card).toContainText(`Write a short, polite follow-up to {{name}} about ${word}.`);
    await expect(card.getByRole('button', { name: `#${word}` })).toBeVisible();
  });

  await test.step('/discover searches both kinds, filters by kind and tag, and sorts', async () => {
    await page.goto('/discover');
    await discover.search(word);
    await expect(discover.cards()).toHaveCount(2);
    await expect(discover.card(scenarioTitle)).toContainText('Scenario');
    await discover.kind('Scenarios');
    await expect(discover.cards()).toHaveCount(1);
    await expect(discover.card(scenarioTitle)).toBeVisible();
    await discover.kind('All');
    await page
      .getByRole('group', { name: 'Tags' })
      .getByRole('button', { name: `#${word}`, exact: true })
      .click();
    await expect(page).toHaveURL((url) => url.searchParams.get('tag') === word);
    await expect(discover.cards()).toHaveCount(1);
    await expect(discover.card(promptTitle)).toBeVisible();
    await page.getByLabel('Sort by').selectOption({ label: 'Most used (30 days)' });
    await expect(page).toHaveURL((url) => url.searchParams.get('sort') === 'most_used');
    await expect(discover.card(promptTitle)).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  await test.step('a search that finds nothing says what to do', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await discover.search(uniqueWord('nothing'));
    await expect(
      page.getByRole('heading', { name: 'Nothing matches these filters' }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).last().click();
    await expect(page).toHaveURL((url) => pathAndSearch(url) === '/discover?sort=most_used');
  });
});

test('a visitor uses a prompt from /discover, signs in, finds it copied once, then copies a scenario', async ({
  browser,
  page,
  request,
  authPage,
}) => {
  test.setTimeout(60_000);
  const word = uniqueWord('lumen');
  const promptTitle = `Follow-up email ${word}`;
  const scenarioTitle = `Review a diff ${word}`;
  const { promptId } = await seedLibrary(browser, { word, promptTitle, scenarioTitle });
  const user = newTestUser('discover');
  await signUpThroughApi(request, user);
  const discover = new DiscoverPage(page);

  await page.goto(`/discover?q=${word}&kind=prompt`);
  await discover
    .card(promptTitle)
    .getByRole('button', { name: `Use this prompt “${promptTitle}”` })
    .click();
  await expect(page).toHaveURL(
    (url) =>
      pathAndSearch(url) ===
      signInRedirect(`/discover?q=${word}&kind=prompt&use=prompt%3A${promptId}`),
  );

  await authPage.signIn(user.email, user.password);
  await expect(page).toHaveURL((url) => pathAndSearch(url) === `/discover?q=${word}&kind=prompt`);
  const card = discover.card(promptTitle);
  await expect(card.getByRole('link', { name: 'Open your prompts' })).toBeVisible();
  await page.reload();
  await expect(card.getByRole('button', { name: /^Use this prompt/ })).toBeVisible();
  const mine = await page.request.get('/rest/v1/prompts?limit=50');
  const prompts = (await mine.json()) as { items: { title: string; content: string }[] };
  expect(prompts.items.map((p) => p.title)).toEqual([promptTitle]);
  expect(prompts.items[0]!.content).toBe(
    `Write a short, polite follow-up to {{name}} about ${word}.`,
  );

  await test.step('signed in, a scenario is copied at once and opens', async () => {
    await discover.kind('Scenarios');
    await discover
      .card(scenarioTitle)
      .getByRole('button', { name: `Use this scenario “${scenarioTitle}”` })
      .click();
    await expect(page).toHaveURL((url) => /^\/scenarios\/[0-9a-f-]{36}$/.test(url.pathname));
    await expect(page.getByRole('heading', { level: 1, name: scenarioTitle })).toBeVisible();
  });
});
