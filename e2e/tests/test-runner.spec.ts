import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import type {
  AccessToken,
  TestRunStatusBody,
  TestSet,
} from '../../packages/shared/src/api/test-runs.ts';
import { TestRunnerPage } from '../pages/test-runner-page.ts';
import { signUpThroughApi } from '../support/accounts.ts';
import { saveKeyThroughApi } from '../support/api-keys.ts';
import { uniqueClientIp } from '../support/client-ip.ts';
import { baseURL } from '../support/env.ts';
import { expect, test } from '../support/fixtures.ts';
import { findLinks, waitForMail } from '../support/mailbox.ts';
import { newTestUser } from '../support/users.ts';

// Issue 20's "Not done until", tried as a new user would: a test set of five cases on a saved
// prompt (contains, regex, JSON and LLM-judge assertions), run on three models three times each,
// its matrix read; the prompt changed and run again, with the regressions marked; the 'test run'
// e-mails; a run started and polled with a personal access token, as curl in CI would; and a
// second user who can read none of it.
//
// The provider simulator echoes the message: `Hello from the {Provider} simulator ({model}). You
// said: "{message}"`, or answers exactly the JSON of a `[sim:json {…}]` marker — so the JSON case
// carries one in its variable, and the judge's rubric scripts the verdict the same way (the rubric
// comes last in the judge's message, so its marker wins).

/** Mail text as one line: the plain-text part of a mail is wrapped. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

const judgeVerdict = '[sim:json {"pass":true,"score":0.9,"reason":"ok"}]';

/** Three models, as the run dialog picks them and the matrix names them. */
const targets = [
  { provider: 'OpenAI', name: 'OpenAI GPT-5' },
  { provider: 'Anthropic', name: 'Anthropic Claude Sonnet 4.5' },
  { provider: 'Mistral', name: 'Mistral Mistral Large' },
] as const;

/** Three cases pasted into the Import dialog as JSON, on the prompt's {{topic}}. */
const importedCases = [
  {
    name: 'Order status as JSON',
    variables: { topic: '[sim:json {"status":"shipped","order":42}]' },
    assertions: [
      { type: 'is_json' },
      {
        type: 'json_schema',
        schema: {
          type: 'object',
          required: ['status', 'order'],
          properties: { status: { enum: ['shipped'] }, order: { type: 'integer' } },
        },
      },
    ],
  },
  {
    name: 'Names the product',
    variables: { topic: 'the Orbit lamp' },
    assertions: [{ type: 'regex', pattern: 'You said: ".*orbit lamp', flags: 'i' }],
  },
  {
    name: 'Answers from the model',
    variables: { topic: 'billing' },
    assertions: [
      { type: 'regex', pattern: '^Hello from the \\w+ simulator' },
      { type: 'contains', values: ['billing', 'invoice'], mode: 'any' },
    ],
  },
];

const caseNames = [
  'Refund request',
  'Polite reply',
  ...importedCases.map((testCase) => testCase.name),
] as const;

const createPromptThroughApi = async (request: APIRequestContext, title: string) => {
  const res = await request.post('/rest/v1/prompts', {
    data: { title, content: 'Customer asks about {{topic}}. Reply helpfully.' },
    headers: { origin: baseURL() },
  });
  expect(res.status(), await res.text()).toBe(201);
};

/** The REST API with a personal access token and no cookie, as curl in a CI pipeline calls it. */
const withToken = (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${baseURL()}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-forwarded-for': uniqueClientIp(),
    },
  });

test('a new user tests a prompt on three models, sees a change regress, gets the e-mails, runs it from CI with a token, and nobody else sees any of it', async ({
  page,
  context,
  browser,
  signedInUser: user,
}) => {
  test.setTimeout(120_000);
  const runner = new TestRunnerPage(page);
  const marker = randomBytes(4).toString('hex');
  const promptTitle = `Support answer ${marker}`;
  const setName = `Support replies ${marker}`;
  const tokenName = `CI ${marker}`;
  for (const provider of ['openai', 'anthropic', 'mistral'] as const) {
    await saveKeyThroughApi(context.request, provider, `sk-e2e-test-runner-${provider}-0001`);
  }
  await createPromptThroughApi(context.request, promptTitle);

  const setId = await test.step('make a test set on the saved prompt', async () => {
    await runner.goto();
    await expect(page.getByText('No test sets yet')).toBeVisible();
    return runner.createPromptSet(setName, promptTitle);
  });

  await test.step('add two cases by hand: contains and regex, and an LLM judge', async () => {
    await expect(page.getByText('No cases yet')).toBeVisible();
    await runner.addCase('Refund request', { topic: 'a refund' }, async (r) => {
      const contains = await r.addAssertion('Contains', 1);
      await contains.getByLabel('Texts to look for', { exact: true }).fill('Customer asks');
      const regex = await r.addAssertion('Matches a regex', 2);
      await regex.getByLabel('Pattern', { exact: true }).fill('You said: ".*refund');
    });
    await runner.addCase('Polite reply', { topic: 'a late delivery' }, async (r) => {
      const judge = await r.addAssertion('LLM judge', 1);
      await judge
        .getByLabel('Rubric', { exact: true })
        .fill(`Polite, and about the late delivery. ${judgeVerdict}`);
      await expect(judge.getByLabel('Provider', { exact: true })).toHaveValue('openai');
      await judge.getByLabel('Model', { exact: true }).selectOption('gpt-5-mini');
    });
  });

  await test.step('import three more, with JSON and regex assertions, pasted as JSON', async () => {
    await runner.importCases(setName, 'JSON', JSON.stringify(importedCases, null, 2));
    await expect(page.getByRole('heading', { name: 'Cases (5)' })).toBeVisible();
    // Coming back to the set later, the five cases are there. (A person takes minutes over the
    // cases; the reload also gives this fast test's tab a fresh minute of its request budget.)
    await runner.gotoSet(setId, setName);
    await expect(page.getByRole('heading', { name: 'Cases (5)' })).toBeVisible();
    const rows = runner.cases().getByRole('row');
    await expect(rows.filter({ hasText: 'Refund request' })).toContainText(
      'Contains, Matches a regex',
    );
    await expect(rows.filter({ hasText: 'Polite reply' })).toContainText('LLM judge');
    await expect(rows.filter({ hasText: 'Order status as JSON' })).toContainText(
      'Is JSON, Matches a JSON schema',
    );
  });

  const firstRunId =
    await test.step('run it on three models, three times each, after seeing the estimate', async () => {
      const dialog = await runner.openRunDialog(setName);
      await runner.pickTargets(dialog, [...targets]);
      await dialog.getByLabel('Repeats', { exact: true }).fill('3');
      await expect(dialog).toContainText('5 cases × 3 models × 3 repeats');
      // 5 × 3 × 3 calls, and the judge grades its case's 3 × 3 answers.
      const estimate = dialog.getByRole('region', { name: 'Estimate' });
      await expect(estimate).toContainText('Model calls45 + 9 judge calls');
      await expect(estimate).toContainText(/Estimated cost\s*about \$\d+\.\d+/);
      return runner.startRun(dialog);
    });

  await test.step('the run finishes; every cell of the matrix passed 3 of 3', async () => {
    await expect(runner.progress()).toHaveText('Finished: 45 of 45 calls', { timeout: 30_000 });
    await expect(runner.summary()).toContainText('All 45 answers passed.');
    await expect(runner.summary()).toContainText(
      'No earlier finished run of this set to compare with.',
    );
    for (const caseName of caseNames) {
      for (const target of targets) {
        await expect(runner.cell(caseName, target.name, '3 of 3 passed')).toBeVisible();
      }
    }
    for (const target of targets) {
      await expect(page.getByRole('cell', { name: `Totals on ${target.name}` })).toContainText(
        '15/15',
      );
    }
    // A cell opens to every answer in full, each assertion with its verdict.
    await runner.cell('Polite reply', targets[1].name, '3 of 3 passed').click();
    const answers = page.getByRole('dialog', {
      name: 'Polite reply on Anthropic · Claude Sonnet 4.5',
    });
    await expect(answers.getByRole('listitem', { name: /^Repeat \d: passed$/ })).toHaveCount(3);
    await expect(answers.getByLabel('Output of repeat 1', { exact: true })).toHaveText(
      'Hello from the Anthropic simulator (claude-sonnet-4-5). You said: "Customer asks about a late delivery. Reply helpfully."',
    );
    await expect(answers.getByRole('list', { name: 'Assertions of repeat 1' })).toContainText(
      'LLM judgescore 0.90ok',
    );
    await answers.getByRole('button', { name: 'Close' }).click();
    await expect(answers).toBeHidden();
  });

  await test.step('the first "test run" e-mail sums it up and links to the results', async () => {
    const mail = await waitForMail({ to: user.email, subjectIncludes: `Test run: ${setName}` });
    expect(mail.subject).toBe(`Test run: ${setName} — 100% passed`);
    expect(flat(mail.text)).toContain('Passed: 45 · Failed: 0 · Errors: 0');
    expect(findLinks(mail, `${baseURL()}/test-runner/runs/`)).toEqual([
      `${baseURL()}/test-runner/runs/${firstRunId}`,
    ]);
  });

  await test.step('change the prompt in the library', async () => {
    await page.goto('/prompts');
    const card = page
      .getByRole('list', { name: 'Your prompts' })
      .getByRole('listitem', { name: promptTitle });
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: `Edit “${promptTitle}”` });
    await edit
      .getByLabel('Prompt', { exact: true })
      .fill('A shopper writes about {{topic}}. Reply helpfully.');
    await edit.getByRole('button', { name: 'Save a new version' }).click();
    await expect(edit).toBeHidden();
    await expect(card).toContainText('version 2');
  });

  const secondRunId = await test.step('run it again on the same models', async () => {
    await runner.gotoSet(setId, setName);
    const dialog = await runner.openRunDialog(setName);
    // The dialog offers the last run's models and repeats.
    for (const [i, target] of targets.entries()) {
      await expect(
        runner.target(dialog, i + 1).getByLabel('Provider', { exact: true }),
      ).toHaveValue(target.provider.toLowerCase());
    }
    await expect(dialog.getByLabel('Repeats', { exact: true })).toHaveValue('3');
    await expect(dialog.getByRole('region', { name: 'Estimate' })).toContainText(
      'Model calls45 + 9 judge calls',
    );
    return runner.startRun(dialog);
  });

  await test.step('the case the change broke is marked regressed on every model', async () => {
    await expect(runner.progress()).toHaveText('Finished: 45 of 45 calls', { timeout: 30_000 });
    await expect(runner.summary()).toContainText('36 of 45 answers passed (80%): 9 failed.');
    await expect(runner.summary()).toContainText(
      'Against the previous run: 3 cells regressed, 0 cells improved.',
    );
    await expect(page.getByLabel('Compare with', { exact: true })).toHaveValue(firstRunId);
    for (const target of targets) {
      await expect(
        runner.cell('Refund request', target.name, '0 of 3 passed, regressed'),
      ).toBeVisible();
      for (const caseName of caseNames.slice(1)) {
        await expect(runner.cell(caseName, target.name, '3 of 3 passed')).toBeVisible();
      }
    }
    // The regressed cell says which assertion failed, and why.
    await runner.cell('Refund request', targets[0].name, '0 of 3 passed, regressed').click();
    const answers = page.getByRole('dialog', { name: 'Refund request on OpenAI · GPT-5' });
    await expect(answers.getByText('Regressed')).toBeVisible();
    const totals = answers.getByRole('list', { name: 'Assertions over all repeats' });
    await expect(totals.getByRole('listitem').nth(0)).toContainText('Contains0 of 3 passed');
    await expect(totals.getByRole('listitem').nth(0)).toContainText('Last failure:');
    await expect(totals.getByRole('listitem').nth(1)).toContainText('Matches a regex3 of 3 passed');
    await answers.getByRole('button', { name: 'Close' }).click();
    await expect(answers).toBeHidden();

    // Compared with nothing, the same cell is no longer marked.
    await page.getByLabel('Compare with', { exact: true }).selectOption({ label: 'Nothing' });
    await expect(runner.cell('Refund request', targets[0].name, '0 of 3 passed')).toBeVisible();
  });

  await test.step('the second e-mail counts the regressions and links to this run', async () => {
    const mail = await waitForMail({
      to: user.email,
      subjectIncludes: `Test run: ${setName} — 80% passed`,
    });
    expect(mail.subject).toBe(`Test run: ${setName} — 80% passed, 3 regressions`);
    expect(flat(mail.text)).toContain('Passed: 36 · Failed: 9 · Errors: 0');
    expect(flat(mail.text)).toContain('Against the previous run: 3 regressions, 0 improvements');
    const links = findLinks(mail, `${baseURL()}/test-runner/runs/`);
    expect(links).toEqual([`${baseURL()}/test-runner/runs/${secondRunId}`]);
    await page.goto(links[0]!);
    await expect(runner.summary()).toContainText('3 cells regressed');
  });

  const token = await test.step('create a personal access token, shown once', async () => {
    await runner.goto();
    await page.getByLabel('Token name', { exact: true }).fill(tokenName);
    await page.getByLabel('Expires after', { exact: true }).selectOption({ label: '7 days' });
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('region', { name: 'Copy your token now' });
    const value = (await shown.getByLabel('New access token').textContent()) ?? '';
    expect(value).toMatch(/^chorus_pat_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await expect(shown).toBeHidden();
    const listed = page.getByRole('table', { name: 'Your access tokens' });
    await expect(listed).toContainText(tokenName);
    await expect(listed).not.toContainText(value);
    return value;
  });

  await test.step('a run started and polled with the token alone, as curl does', async () => {
    const started = await withToken(token, '/functions/v1/test-run', {
      method: 'POST',
      body: JSON.stringify({
        test_set_id: setId,
        targets: [{ provider: 'openai', model: 'gpt-5-2025-08-07' }],
        repeats: 1,
      }),
    });
    expect(started.status, await started.clone().text()).toBe(202);
    const run = (await started.json()) as TestRunStatusBody;
    expect(run.source).toBe('token');
    expect(run.total).toBe(5);

    let status: TestRunStatusBody | undefined;
    await expect
      .poll(
        async () => {
          const res = await withToken(token, `/functions/v1/test-run/${run.id}`);
          if (res.status !== 200) return `HTTP ${res.status}`;
          status = (await res.json()) as TestRunStatusBody;
          return status.status;
        },
        { timeout: 30_000, intervals: [250, 500] },
      )
      .toBe('done');
    // What a pipeline reads: the changed prompt still fails one case; nothing new regressed.
    expect(status?.summary).toMatchObject({
      total: 5,
      passed: 4,
      failed: 1,
      errors: 0,
      all_passed: false,
      baseline_run_id: secondRunId,
      regressions: 0,
    });
    expect(status?.url).toBe(`${baseURL()}/test-runner/runs/${run.id}`);

    await page.goto(`/test-runner/runs/${run.id}`);
    await expect(page.getByText(/with an access token/)).toBeVisible();
    await expect(runner.progress()).toHaveText('Finished: 5 of 5 calls');
  });

  const tokens = await context.request.get('/rest/v1/access-tokens');
  expect(tokens.status()).toBe(200);
  const [tokenRow] = ((await tokens.json()) as { items: AccessToken[] }).items;
  expect(tokenRow?.name).toBe(tokenName);

  await test.step('a second user reads none of the first one’s sets, runs or tokens', async () => {
    const other = await browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': uniqueClientIp() },
    });
    try {
      await signUpThroughApi(other.request, newTestUser('test-runner-other'));
      const api = other.request;
      const origin = { origin: baseURL() };
      expect((await api.get(`/rest/v1/test-sets/${setId}`)).status()).toBe(404);
      expect((await api.get(`/rest/v1/test-sets/${setId}/cases`)).status()).toBe(404);
      expect((await api.get(`/rest/v1/test-runs/${secondRunId}`)).status()).toBe(404);
      expect((await api.get(`/functions/v1/test-run/${secondRunId}`)).status()).toBe(404);
      const sets = (await (await api.get('/rest/v1/test-sets')).json()) as { items: TestSet[] };
      expect(sets.items).toEqual([]);
      const theirTokens = await api.get('/rest/v1/access-tokens');
      expect(theirTokens.status()).toBe(200);
      expect(((await theirTokens.json()) as { items: AccessToken[] }).items).toEqual([]);
      const revoke = await api.delete(`/rest/v1/access-tokens/${tokenRow!.id}`, {
        headers: origin,
      });
      expect(revoke.status(), await revoke.text()).toBe(404);
      const start = await api.post('/functions/v1/test-run', {
        data: { test_set_id: setId, targets: [{ provider: 'openai', model: 'gpt-5-mini' }] },
        headers: origin,
      });
      expect(start.status(), await start.text()).toBe(404);

      // In the app, the set's page says it is not theirs.
      const otherPage = await other.newPage();
      await otherPage.goto(`/test-runner/sets/${setId}`);
      await expect(
        otherPage.getByRole('heading', { name: 'Test set not found', level: 1 }),
      ).toBeVisible();
    } finally {
      await other.close();
    }
    // Their attempt left the token working.
    expect((await withToken(token, `/functions/v1/test-run/${secondRunId}`)).status).toBe(200);
  });

  await test.step('revoking the token stops it at once', async () => {
    await runner.goto();
    await page.getByRole('button', { name: `Revoke “${tokenName}”` }).click();
    await page.getByRole('button', { name: 'Revoke token' }).click();
    await expect(page.getByText('You have no access tokens yet.')).toBeVisible();
    expect((await withToken(token, `/functions/v1/test-run/${secondRunId}`)).status).toBe(401);
  });
});
