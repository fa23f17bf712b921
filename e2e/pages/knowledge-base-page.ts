import { expect, type Locator, type Page } from '@playwright/test';

export type UploadFile = { name: string; mimeType: string; buffer: Buffer };

/** /knowledge-base: the user's knowledge bases, the chosen one's documents, the inspector. */
export class KnowledgeBasePage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto('/knowledge-base');
    await expect(
      this.page.getByRole('heading', { name: 'Knowledge base', level: 1 }),
    ).toBeVisible();
  }

  /** Creates a base from the dialog, keeping the embedding model it proposes. */
  async create(name: string, description = '') {
    await this.page.getByRole('button', { name: 'New knowledge base' }).first().click();
    const dialog = this.page.getByRole('dialog', { name: 'New knowledge base' });
    await dialog.getByLabel('Name').fill(name);
    if (description) await dialog.getByLabel('Description').fill(description);
    await dialog.getByRole('button', { name: 'Create knowledge base' }).click();
    await expect(this.page.getByRole('heading', { name, level: 2 })).toBeVisible();
  }

  embeddingModel(): Locator {
    return this.page.getByRole('dialog').getByLabel('Embedding model');
  }

  async upload(files: UploadFile[]) {
    await this.page.getByLabel('Documents to upload').setInputFiles(files);
  }

  readonly uploadResults = () => this.page.getByRole('region', { name: 'Upload results' });

  readonly documents = () =>
    this.page.getByRole('list', { name: 'Documents of this knowledge base' });

  document(name: string): Locator {
    return this.documents().getByRole('listitem', { name, exact: true });
  }

  async deleteDocument(name: string) {
    await this.document(name)
      .getByRole('button', { name: `Delete ${name}` })
      .click();
    await this.page
      .getByRole('dialog', { name: `Delete “${name}”?` })
      .getByRole('button', { name: 'Delete document' })
      .click();
  }

  async inspect(query: string) {
    await this.page.getByLabel('Query', { exact: true }).fill(query);
    await this.page.getByRole('button', { name: 'Search', exact: true }).click();
    return this.page.getByRole('list', { name: 'Ranked passages' });
  }
}
