import { expect, type Locator, type Page } from '@playwright/test';

export type CustomAiInput = {
  name: string;
  avatar?: string;
  instructions?: string;
  provider?: string;
  /** A model's label in the list. */
  model?: string;
  temperature?: string;
  starters?: string[];
};

/** /custom-ais: the user's custom AIs as cards, and the dialog that creates or edits one. */
export class CustomAisPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/custom-ais');
    await expect(this.page.getByRole('heading', { name: 'Custom AIs', level: 1 })).toBeVisible();
  }

  card(name: string): Locator {
    return this.page
      .getByRole('list', { name: 'Your custom AIs' })
      .getByRole('listitem', { name, exact: true });
  }

  /** Fills the new custom AI dialog and creates it; its card then shows. */
  async create(ai: CustomAiInput) {
    await this.page.getByRole('button', { name: 'New custom AI' }).first().click();
    const dialog = this.page.getByRole('dialog', { name: 'New custom AI' });
    await dialog.getByLabel('Name').fill(ai.name);
    if (ai.avatar) await dialog.getByLabel('Avatar', { exact: true }).fill(ai.avatar);
    if (ai.instructions) await dialog.getByLabel('Instructions').fill(ai.instructions);
    if (ai.provider) await dialog.getByLabel('Provider').selectOption({ label: ai.provider });
    if (ai.model) await dialog.getByLabel('Model').selectOption({ label: ai.model });
    if (ai.temperature) await dialog.getByLabel('Temperature').fill(ai.temperature);
    for (const [index, starter] of (ai.starters ?? []).entries()) {
      await dialog.getByRole('button', { name: 'Add a starter' }).click();
      await dialog
        .getByRole('textbox', { name: `Conversation starter ${index + 1}`, exact: true })
        .fill(starter);
    }
    await dialog.getByRole('button', { name: 'Create custom AI' }).click();
    await expect(dialog).toBeHidden();
    await expect(this.card(ai.name)).toBeVisible();
  }
}
