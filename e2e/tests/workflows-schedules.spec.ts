import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { Schedule, ScheduleRun } from '../../packages/shared/src/api/schedules.ts';
import type { JobQueues } from '../../packages/shared/src/api/jobs.ts';
import { saveKeyThroughApi } from '../support/api-keys.ts';
import { expect, test } from '../support/fixtures.ts';
import { findMails } from '../support/mailbox.ts';
import { superAdminRequest } from '../support/super-admin.ts';

// Issue 19's "Not done until", tried as a new user would: a three-step workflow built in the
// editor and run while its steps show live, then scheduled every minute, e-mailing each result,
// and paused.
//
// Schedules fire at minute boundaries in real time (the `schedules-tick` cron job of pg-boss, as in
// production), so the schedule is created right after the workflow is saved and the manual run is
// watched while its first minute passes. Waiting is done by polling what the server and the test
// SMTP server show, never by fixed sleeps.

/** /workflows: the user's workflows as cards, the editor dialog and the run view. */
class WorkflowsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/workflows');
    await expect(this.page.getByRole('heading', { name: 'Workflows', level: 1 })).toBeVisible();
  }

  card(name: string): Locator {
    return this.page
      .getByRole('list', { name: 'Your workflows' })
      .getByRole('listitem', { name, exact: true });
  }

  editor(): Locator {
    return this.page.getByRole('dialog', { name: 'New workflow' });
  }

  /** Adds a step of `kind` at the end of the open editor and returns its part of the form. */
  async addStep(kind: 'Prompt' | 'Condition', index: number): Promise<Locator> {
    const editor = this.editor();
    await editor
      .getByRole('group', { name: 'Add a step' })
      .getByRole('button', { name: kind, exact: true })
      .click();
    const step = editor
      .getByRole('list', { name: 'Steps' })
      .getByRole('listitem', { name: new RegExp(`^Step ${index}: `) });
    await expect(step).toContainText(`· ${kind}`);
    return step;
  }

  async nameStep(step: Locator, name: string, id: string) {
    await step.getByLabel('Step name', { exact: true }).fill(name);
    await step.getByLabel('Step id', { exact: true }).fill(id);
  }

  runView(): Locator {
    return this.page.getByRole('dialog', { name: 'Workflow run' });
  }

  /** One step of the open run view, by its place. */
  runStep(index: number): Locator {
    return this.runView()
      .getByRole('list', { name: 'Steps' })
      .getByRole('listitem', { name: new RegExp(`^Step ${index}: `) });
  }
}

/** /schedule-runs: the user's schedules as cards, the schedule dialog and a schedule's runs. */
class ScheduleRunsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/schedule-runs');
    await expect(this.page.getByRole('heading', { name: 'Schedule runs', level: 1 })).toBeVisible();
  }

  card(name: string): Locator {
    return this.page
      .getByRole('list', { name: 'Your schedules' })
      .getByRole('listitem', { name, exact: true });
  }

  async openRuns(name: string): Promise<Locator> {
    await this.card(name).getByRole('button', { name: 'Runs' }).click();
    const dialog = this.page.getByRole('dialog', { name: `Runs of “${name}”` });
    await expect(dialog).toBeVisible();
    return dialog;
  }
}

/** The user's schedule called `name`, as the REST API answers it. */
const scheduleNamed = async (request: APIRequestContext, name: string): Promise<Schedule> => {
  const res = await request.get('/rest/v1/schedules');
  expect(res.status(), await res.text()).toBe(200);
  const { schedules } = (await res.json()) as { schedules: Schedule[] };
  const schedule = schedules.find((s) => s.name === name);
  if (!schedule) throw new Error(`No schedule called ${name}`);
  return schedule;
};

/** A schedule's occurrences, newest first (one page holds far more than this test makes). */
const scheduleRuns = async (request: APIRequestContext, id: string): Promise<ScheduleRun[]> => {
  const res = await request.get(`/rest/v1/schedules/${id}/runs?limit=100`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { runs: ScheduleRun[] }).runs;
};

/** When pg-boss last finished a `schedules-tick` job (the back office's view of the queues). */
const lastTickAt = async (admin: APIRequestContext): Promise<number> => {
  const res = await admin.get('/rest/v1/admin/jobs');
  expect(res.status(), await res.text()).toBe(200);
  const { queues } = (await res.json()) as JobQueues;
  const tick = queues.find((q) => q.name === 'schedules-tick');
  return tick?.last_completed_at ? Date.parse(tick.last_completed_at) : 0;
};

/** Mail text as one line: the plain-text part of a mail is wrapped. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

test('a new user builds a three-step workflow, watches a run live, schedules it every minute, gets two results by e-mail, and a paused schedule runs no more', async ({
  page,
  context,
  signedInUser: user,
}) => {
  // Two occurrences come at the next two minute boundaries (up to ~2.5 min with the tick's lag),
  // and after the pause the next minute's tick is waited for (up to ~1.5 min).
  test.setTimeout(6 * 60_000);
  const workflows = new WorkflowsPage(page);
  const schedules = new ScheduleRunsPage(page);
  const marker = randomBytes(4).toString('hex');
  const workflowName = `Colour digest ${marker}`;
  const scheduleName = `Every minute ${marker}`;
  // The simulator streams its echo a word every 250 ms, so each step runs long enough to be seen.
  const firstPrompt = `Name a colour [sim:delay-ms 250] (${marker})`;
  const firstOutput = new RegExp(
    `^Hello from the OpenAI simulator \\([^)]+\\)\\. You said: "${firstPrompt.replace(/[[\]()]/g, '\\$&')}"$`,
  );
  await saveKeyThroughApi(context.request, 'openai', 'sk-e2e-workflows-schedules-0001');

  await test.step('build a workflow: prompt → condition → prompt', async () => {
    await workflows.goto();
    await expect(page.getByText('No workflows yet')).toBeVisible();
    await page.getByRole('button', { name: 'New workflow' }).first().click();
    await expect(page).toHaveURL(/\/workflows\?edit=new$/);
    const editor = workflows.editor();
    await editor.getByLabel('Name', { exact: true }).fill(workflowName);

    const first = await workflows.addStep('Prompt', 1);
    await workflows.nameStep(first, 'Ask for a colour', 'first');
    await expect(first.getByLabel('Provider', { exact: true })).toHaveValue('openai');
    await first.getByLabel('Prompt', { exact: true }).fill(firstPrompt);

    const check = await workflows.addStep('Condition', 2);
    await workflows.nameStep(check, 'Came from the simulator', 'check');
    await check
      .getByLabel('Condition', { exact: true })
      .fill('steps.first.output.contains("simulator")');

    const second = await workflows.addStep('Prompt', 3);
    await workflows.nameStep(second, 'Summarise it', 'second');
    const prompt = second.getByLabel('Prompt', { exact: true });
    await prompt.fill('Summarise: ');
    // The editor offers the outputs of the steps above as variables to insert.
    await second
      .getByRole('group', { name: 'Insert a variable into Prompt' })
      .getByRole('button', { name: '{{steps.first.output}}', exact: true })
      .click();
    await expect(prompt).toHaveValue('Summarise: {{steps.first.output}}');

    await editor.getByRole('button', { name: 'Create workflow' }).click();
    await expect(editor).toBeHidden();
    const card = workflows.card(workflowName);
    await expect(card).toContainText('3 steps');
    await expect(card).toContainText('Never run');
  });

  await test.step('schedule it every minute, with the next runs previewed', async () => {
    await schedules.goto();
    await page.getByRole('button', { name: 'New schedule' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New schedule' });
    await dialog.getByLabel('Name', { exact: true }).fill(scheduleName);
    await dialog.getByLabel('What it runs', { exact: true }).selectOption({ label: 'A workflow' });
    await dialog.getByLabel('Workflow', { exact: true }).selectOption({ label: workflowName });
    await expect(dialog.getByLabel('Version', { exact: true })).toHaveValue('');
    await dialog.getByLabel('Cron expression', { exact: true }).fill('* * * * *');
    await expect(dialog.getByTestId('cron-description')).toHaveText('Every minute');
    await expect(dialog.getByRole('list', { name: 'Next runs' }).getByRole('listitem')).toHaveCount(
      5,
    );
    await expect(dialog.getByLabel('Completes, with the result')).toBeChecked();
    await dialog.getByRole('button', { name: 'Create schedule' }).click();
    await expect(dialog).toBeHidden();
    const card = schedules.card(scheduleName);
    await expect(card).toContainText('Active');
    await expect(card).toContainText(`A workflow: ${workflowName}`);
    await expect(card).toContainText('Every minute');
    await expect(card).toContainText('Not run yet');
  });
  const schedule = await scheduleNamed(context.request, scheduleName);

  await test.step('run it by hand and watch the steps complete live', async () => {
    await workflows.goto();
    await workflows.card(workflowName).getByRole('button', { name: 'Run' }).click();
    await page
      .getByRole('dialog', { name: `Run “${workflowName}”` })
      .getByRole('button', { name: 'Start run' })
      .click();
    await expect(page).toHaveURL(/\/workflows\?run=[0-9a-f-]{36}$/);
    const view = workflows.runView();
    const progress = view.getByRole('status');
    await expect(view).toContainText('started by you');

    // The first step is under way, the others wait…
    await expect(progress).toHaveText('Running: 0 of 3 steps finished', { timeout: 15_000 });
    await expect(workflows.runStep(1)).toContainText('Running');
    // …then the condition holds and the last step runs with the first one's answer.
    await expect(progress).toHaveText('Running: 2 of 3 steps finished', { timeout: 15_000 });
    await expect(workflows.runStep(1)).toContainText('Done');
    await expect(workflows.runStep(2)).toContainText('Done');
    await expect(workflows.runStep(3)).toContainText('Running');
    const firstAnswer = view.getByLabel('Output of step 1', { exact: true });
    await expect(firstAnswer).toHaveText(firstOutput);
    const answer = (await firstAnswer.textContent()) ?? '';

    await expect(progress).toHaveText('Finished: 3 of 3 steps ran or were skipped', {
      timeout: 20_000,
    });
    for (const index of [1, 2, 3]) await expect(workflows.runStep(index)).toContainText('Done');
    await expect(view.getByLabel('Output of step 3', { exact: true })).toContainText(
      `You said: "Summarise: ${answer}"`,
    );
    await expect(view.getByRole('heading', { name: 'Result' })).toBeVisible();
  });

  await test.step('two runs come on schedule', async () => {
    // Polled tightly so that the pause below comes well before the next minute's occurrence.
    await expect
      .poll(
        async () =>
          (await scheduleRuns(context.request, schedule.id)).map((r) => `${r.trigger} ${r.status}`),
        { timeout: 200_000, intervals: [500] },
      )
      .toEqual(['cron complete', 'cron complete']);
  });

  await test.step('pause it', async () => {
    await schedules.goto();
    const card = schedules.card(scheduleName);
    await card.getByRole('button', { name: 'Pause' }).click();
    await expect(card).toContainText('Paused');
    await expect(card).toContainText('None while it is off');
    await expect(card.getByRole('button', { name: 'Resume' })).toBeVisible();
  });
  const pausedAt = Date.now();

  await test.step('the history shows the two runs, with the result', async () => {
    const runs = await schedules.openRuns(scheduleName);
    const items = runs.getByRole('list', { name: 'Runs' }).getByRole('listitem');
    await expect(items).toHaveCount(2);
    for (const item of await items.all()) {
      await expect(item).toContainText('Complete');
      await expect(item).toContainText('On schedule');
      await expect(item).toContainText(`You said: "Summarise: Hello from the OpenAI simulator`);
      await expect(item).toContainText(marker);
    }
    // Each occurrence keeps its workflow run, step by step.
    await items.first().getByRole('link', { name: 'Open the workflow run' }).click();
    await expect(page).toHaveURL(/\/workflows\?run=[0-9a-f-]{36}$/);
    const view = workflows.runView();
    await expect(view).toContainText('started by a schedule');
    await expect(view.getByRole('status')).toHaveText('Finished: 3 of 3 steps ran or were skipped');
    await expect(view.getByLabel('Output of step 1', { exact: true })).toHaveText(firstOutput);
  });

  await test.step('two "Run completed" mails arrived, each with the result text', async () => {
    const query = { to: user.email, subjectIncludes: `Run completed: ${scheduleName}` };
    await expect.poll(() => findMails(query).length, { timeout: 15_000 }).toBe(2);
    for (const mail of findMails(query)) {
      expect(flat(mail.text)).toContain(`You said: "Summarise: Hello from the OpenAI simulator`);
      expect(flat(mail.text)).toContain(`You said: "${firstPrompt}"`);
    }
  });

  await test.step('no third run comes once the next minute has been ticked', async () => {
    const paused = await scheduleNamed(context.request, scheduleName);
    expect(paused.enabled).toBe(false);
    expect(paused.next_runs).toEqual([]);
    // The tick of the first minute boundary after the pause is the one that would have claimed a
    // third occurrence; once pg-boss has finished it, what it claimed is in the history.
    const nextBoundary = Math.ceil((pausedAt + 1) / 60_000) * 60_000;
    const admin = await superAdminRequest();
    try {
      await expect
        .poll(async () => (await lastTickAt(admin)) >= nextBoundary, {
          timeout: 120_000,
          intervals: [2_000],
        })
        .toBe(true);
    } finally {
      await admin.dispose();
    }
    expect((await scheduleRuns(context.request, schedule.id)).length).toBe(2);
  });
});
