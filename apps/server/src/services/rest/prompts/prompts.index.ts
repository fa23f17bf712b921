import type { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  exportedPromptSchema,
  promptExportFormat,
  promptLimits,
  type PromptExport,
  type PromptImportResult,
} from '@chorus/shared/api/prompts';
import { messageFor } from '@chorus/shared/error-catalogue';
import { fillTemplate, missingVariables } from '@chorus/shared/template';
import { decodeCursor, encodeCursor } from '../../../db/keyset-cursor.ts';
import { PromptsRepository, type NewPrompt } from '../../../db/repositories/prompts.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError, errorBody, validationHook } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import { contentDisposition } from '../../storage/files/download.ts';
import { promptNotFound, toPrompt, tooManyPrompts } from './prompt-response.ts';
import {
  createPromptRoute,
  deletePromptRoute,
  exportPromptsRoute,
  getPromptRoute,
  importPromptsRoute,
  listPromptsRoute,
  listPromptVersionsRoute,
  renderPromptRoute,
  restorePromptVersionRoute,
  sharePromptRoute,
  updatePromptRoute,
} from './prompts.routes.ts';

const repoOf = (c: { var: AuthedEnv['Variables'] }) =>
  new PromptsRepository(c.var.deps.database.db, c.var.user.id);

/** The id from the path, when it can name a prompt at all. */
const promptId = (id: string) => {
  if (!isUuid(id)) throw promptNotFound();
  return id;
};

const importFull = () =>
  `Your library is full: it holds at most ${promptLimits.perUser.toLocaleString('en')} prompts`;

/** Why a row of an import was refused, each reason naming its field. */
const reasonsOf = (error: z.ZodError): string[] => [
  ...new Set(
    error.issues.map((issue) => {
      const [field, index] = issue.path;
      if (field === undefined) return issue.message;
      const name = typeof index === 'number' ? `${String(field)}[${index + 1}]` : String(field);
      return `${name}: ${issue.message}`;
    }),
  ),
];

/** The row's title for the report when it has a readable one. */
const readableTitle = (raw: unknown): string | null => {
  const title = raw && typeof raw === 'object' ? (raw as { title?: unknown }).title : undefined;
  return typeof title === 'string' && title.trim() !== '' ? title.trim().slice(0, 200) : null;
};

/**
 * A body that is no prompt export at all (not an object, or another `format`) is answered with
 * `prompts:import_invalid`; any other shape error is the usual validation answer.
 */
const importHook = (
  result: { success: true } | { success: false; error: z.ZodError; target?: string },
  c: Context,
) => {
  if (
    !result.success &&
    result.target === 'json' &&
    result.error.issues.some((issue) => issue.path.length === 0 || issue.path[0] === 'format')
  ) {
    return c.json(errorBody(messageFor('prompts:import_invalid'), 'prompts:import_invalid'), 400);
  }
  return validationHook(result, c);
};

const today = () => new Date().toISOString().slice(0, 10);

export const promptsRouter = createRouter<AuthedEnv>()
  .openapi(listPromptsRoute, async (c) => {
    const { limit, cursor, search, category, favorite } = c.req.valid('query');
    const after = cursor ? decodeCursor(cursor) : undefined;
    if (after === null) throw new ApiError(400, 'prompts:bad_cursor');
    const repo = repoOf(c);
    // One extra row tells whether another page exists without a count query.
    const [rows, categories] = await Promise.all([
      repo.list({ limit: limit + 1, after, search, category, favorite }),
      repo.categories(),
    ]);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return c.json(
      {
        items: page.map(toPrompt),
        next_cursor: rows.length > limit && last ? encodeCursor(last) : null,
        categories,
      },
      200,
    );
  })
  .openapi(createPromptRoute, async (c) => {
    const created = await repoOf(c).create(c.req.valid('json'));
    if (created === 'too_many') throw tooManyPrompts();
    return c.json(toPrompt(created), 201);
  })
  // Before `/prompts/{id}`, which would take `export` for an id.
  .openapi(exportPromptsRoute, async (c) => {
    const rows = await repoOf(c).all();
    const file: PromptExport = {
      format: promptExportFormat,
      version: 1,
      exported_at: new Date().toISOString(),
      prompts: rows.map((row) => ({
        title: row.title,
        content: row.content,
        description: row.description,
        category: row.category,
        tags: row.tags,
        favorite: row.favorite,
      })),
    };
    c.header('content-disposition', contentDisposition(`chorus-prompts-${today()}.json`));
    return c.json(file, 200);
  })
  .openapi(
    importPromptsRoute,
    async (c) => {
      const file = c.req.valid('json');
      const repo = repoOf(c);
      const room = await repo.room();
      const refused: PromptImportResult['refused'] = [];
      const accepted: { row: number; values: NewPrompt }[] = [];
      file.prompts.forEach((raw, index) => {
        const row = index + 1;
        const parsed = exportedPromptSchema.safeParse(raw);
        if (!parsed.success) {
          refused.push({ row, title: readableTitle(raw), reasons: reasonsOf(parsed.error) });
        } else if (accepted.length >= room) {
          refused.push({ row, title: parsed.data.title, reasons: [importFull()] });
        } else {
          accepted.push({ row, values: parsed.data });
        }
      });
      const imported = await repo.importMany(accepted.map((a) => a.values));
      // Prompts saved meanwhile (another tab) may have taken some of the room.
      for (const { row, values } of accepted.slice(imported)) {
        refused.push({ row, title: values.title, reasons: [importFull()] });
      }
      refused.sort((a, b) => a.row - b.row);
      c.var.deps.log.info(
        { userId: c.var.user.id, imported, refused: refused.length },
        'prompts imported',
      );
      return c.json({ imported, refused }, 200);
    },
    importHook,
  )
  .openapi(getPromptRoute, async (c) => {
    const row = await repoOf(c).get(promptId(c.req.valid('param').id));
    if (!row) throw promptNotFound();
    return c.json(toPrompt(row), 200);
  })
  .openapi(updatePromptRoute, async (c) => {
    const id = promptId(c.req.valid('param').id);
    const row = await repoOf(c).update(id, c.req.valid('json'));
    if (!row) throw promptNotFound();
    return c.json(toPrompt(row), 200);
  })
  .openapi(deletePromptRoute, async (c) => {
    if (!(await repoOf(c).delete(promptId(c.req.valid('param').id)))) throw promptNotFound();
    return c.body(null, 204);
  })
  .openapi(renderPromptRoute, async (c) => {
    const row = await repoOf(c).get(promptId(c.req.valid('param').id));
    if (!row) throw promptNotFound();
    const { variables } = c.req.valid('json');
    const names = missingVariables([row.title, row.description, row.content], variables);
    if (names.length > 0) {
      throw new ApiError(
        400,
        'prompts:missing_variable',
        messageFor('prompts:missing_variable', { names }),
      );
    }
    return c.json(
      {
        title: fillTemplate(row.title, variables),
        content: fillTemplate(row.content, variables),
        description: fillTemplate(row.description, variables),
      },
      200,
    );
  })
  .openapi(listPromptVersionsRoute, async (c) => {
    const rows = await repoOf(c).versions(promptId(c.req.valid('param').id));
    if (!rows) throw promptNotFound();
    return c.json(
      {
        items: rows.map((v) => ({
          version: v.version,
          title: v.title,
          content: v.content,
          description: v.description,
          category: v.category,
          tags: v.tags,
          created_at: v.created_at.toISOString(),
        })),
      },
      200,
    );
  })
  .openapi(restorePromptVersionRoute, async (c) => {
    const { id, version } = c.req.valid('param');
    const row = await repoOf(c).restore(promptId(id), version);
    if (!row) throw promptNotFound();
    if (row === 'no_version') throw new ApiError(404, 'prompts:version_not_found');
    return c.json(toPrompt(row), 200);
  })
  .openapi(sharePromptRoute, async (c) => {
    const id = promptId(c.req.valid('param').id);
    const row = await repoOf(c).share(id, c.req.valid('json').public);
    if (!row) throw promptNotFound();
    c.var.deps.log.info(
      { userId: c.var.user.id, promptId: id, public: row.is_public },
      row.is_public ? 'prompt submitted to the library' : 'prompt withdrawn from the library',
    );
    return c.json(toPrompt(row), 200);
  });
