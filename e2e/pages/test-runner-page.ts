import { expect, type Locator, type Page } from '@playwright/test';

/** An assertion type as the case dialog's "Assertion to add" list names it. */
export type AssertionLabel =
  | 'Equals'
  | 'Contains'
  | 'Does not contain'
  | 'Matches a regex'
  | 'Is JSON'
  | 'Matches a JSON schema'
  | 'Length'
  | 'Latency'
  | 'Cost'
  | 'LLM judge';

/** A model a run goes to, as the run dialog's selects name it (the model by its id). */
export type RunTarget = { provider: string; model?: string };

/**
 * /test-runner: the test sets, a set's page (cases, import, run dialog), a run's page (progress,
 * matrix of cases × models, summary) and the API access section.
 */
export class TestRunnerPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/test-runner');
    await expect(this.page.getByRole('heading', { name: 'Test runner', level: 1 })).toBeVisible();
  }

  async gotoSet(id: string, name: string) {
    await this.page.goto(`/test-runner/sets/${id}`);
    await expect(this.page.getByRole('heading', { name, level: 1 })).toBeVisible();
  }

  /** Creates a set testing one of the user's saved prompts; its page opens. Returns its id. */
  async createPromptSet(name: string, promptTitle: string): Promise<string> {
    await this.page.getByRole('button', { name: 'New test set' }).first().click();
    const dialog = this.page.getByRole('dialog', { name: 'New test set' });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await expect(dialog.getByLabel('What to test', { exact: true })).toHaveValue('prompt');
    await dialog.getByLabel('Prompt to test', { exact: true }).selectOption({ label: promptTitle });
    await dialog.getByRole('button', { name: 'Create test set' }).click();
    await expect(dialog).toBeHidden();
    await expect(this.page).toHaveURL(/\/test-runner\/sets\/[0-9a-f-]{36}$/);
    await expect(this.page.getByRole('heading', { name, level: 1 })).toBeVisible();
    return new URL(this.page.url()).pathname.split('/').at(-1)!;
  }

  caseDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'New case' });
  }

  /** Adds an assertion of `type` at the end of the open case dialog and returns its fields. */
  async addAssertion(type: AssertionLabel, index: number): Promise<Locator> {
    const dialog = this.caseDialog();
    await dialog.getByLabel('Assertion to add', { exact: true }).selectOption({ label: type });
    await dialog.getByRole('button', { name: 'Add assertion' }).click();
    const item = dialog
      .getByRole('list', { name: 'Assertions' })
      .getByRole('listitem', { name: `Assertion ${index}: ${type}`, exact: true });
    await expect(item).toBeVisible();
    return item;
  }

  /**
   * Adds a case by hand: its name, the values of the template's variables (their rows come from
   * the prompt), and assertions that `assert` adds with addAssertion.
   */
  async addCase(
    name: string,
    variables: Record<string, string>,
    assert: (page: TestRunnerPage) => Promise<void>,
  ) {
    // The empty set offers the button in its empty state, a set with cases above its table.
    await this.page.getByRole('button', { name: 'Add case', exact: true }).first().click();
    const dialog = this.caseDialog();
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    for (const [variable, value] of Object.entries(variables)) {
      await dialog.getByLabel(`Value of ${variable}`, { exact: true }).fill(value);
    }
    await assert(this);
    await dialog.getByRole('button', { name: 'Add case', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(this.cases().getByRole('row').filter({ hasText: name })).toBeVisible();
  }

  cases(): Locator {
    return this.page.getByRole('table', { name: 'Cases' });
  }

  /** Pastes cases into the Import dialog and imports them. */
  async importCases(setName: string, format: 'CSV' | 'JSON', content: string) {
    await this.page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = this.page.getByRole('dialog', { name: `Import cases into “${setName}”` });
    await dialog.getByLabel('Format', { exact: true }).selectOption({ label: format });
    await dialog.getByLabel('Cases to import', { exact: true }).fill(content);
    await dialog.getByRole('button', { name: 'Import cases' }).click();
    await expect(dialog).toBeHidden();
  }

  runDialog(setName: string): Locator {
    return this.page.getByRole('dialog', { name: `Run “${setName}”` });
  }

  /** Opens the run dialog of the set whose page is open. */
  async openRunDialog(setName: string): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = this.runDialog(setName);
    await expect(dialog).toBeVisible();
    return dialog;
  }

  target(dialog: Locator, index: number): Locator {
    return dialog.getByRole('group', { name: `Target ${index}`, exact: true });
  }

  /** Sets the run dialog's models: the first row is there already, the others are added. */
  async pickTargets(dialog: Locator, targets: RunTarget[]) {
    for (const [i, target] of targets.entries()) {
      if (i > 0) await dialog.getByRole('button', { name: 'Add model' }).click();
      const row = this.target(dialog, i + 1);
      await row.getByLabel('Provider', { exact: true }).selectOption({ label: target.provider });
      if (target.model) await row.getByLabel('Model', { exact: true }).selectOption(target.model);
    }
  }

  /** Starts the run from the open dialog; the run's page opens. Returns the run's id. */
  async startRun(dialog: Locator): Promise<string> {
    await dialog.getByRole('button', { name: 'Start run' }).click();
    await expect(this.page).toHaveURL(/\/test-runner\/runs\/[0-9a-f-]{36}(\?.*)?$/);
    return new URL(this.page.url()).pathname.split('/').at(-1)!;
  }

  /** The run page's progress line ("Running: 12 of 45 calls done", "Finished: 45 of 45 calls"). */
  progress(): Locator {
    return this.page.getByRole('status').filter({ hasText: / of [\d,]+ calls/ });
  }

  /** A cell of the matrix, by its case and model, named with its outcome. */
  cell(caseName: string, target: string, outcome: string): Locator {
    return this.page
      .getByRole('table', { name: /^Results:/ })
      .getByRole('button', { name: `${caseName} on ${target}: ${outcome}`, exact: true });
  }

  summary(): Locator {
    return this.page.getByRole('region', { name: 'Summary', exact: true });
  }
}
