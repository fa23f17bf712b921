import { z } from 'zod';

/** Field limits of a prompt, in characters (tags: each and how many). */
export const promptLimits = {
  title: 200,
  description: 2_000,
  category: 60,
  content: 20_000,
  tag: 40,
  tags: 20,
  /** Prompts one user may keep. */
  perUser: 5_000,
  /** Rows one import may hold. */
  importRows: 1_000,
  variableValue: 20_000,
} as const;

const text = (label: string, max: number) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${label} is missing` : `${label} must be text`,
    })
    .trim()
    .max(max, `${label} is at most ${max.toLocaleString('en')} characters`);

const promptFields = {
  title: text('The title', promptLimits.title).min(1, 'Give the prompt a title'),
  content: text('The prompt', promptLimits.content).min(1, 'Write the prompt'),
  description: text('The description', promptLimits.description),
  category: text('The category', promptLimits.category),
  tags: z
    .array(text('A tag', promptLimits.tag).min(1, 'A tag cannot be empty'), {
      error: 'Tags must be a list of words',
    })
    .max(promptLimits.tags, `At most ${promptLimits.tags} tags`)
    .transform((tags) => [...new Set(tags)]),
  favorite: z.boolean({ error: 'favorite must be true or false' }),
};

/** Where a prompt stands with the public library. */
export const promptSharingSchema = z.enum(['private', 'submitted', 'published']);
export type PromptSharing = z.infer<typeof promptSharingSchema>;

export const promptVariableSchema = z.object({
  name: z.string(),
  /** Null when it must be filled in. */
  default: z.string().nullable(),
});

export const promptSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  description: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  favorite: z.boolean(),
  /** The `{{variables}}` of every field, each once, in order. */
  variables: z.array(promptVariableSchema),
  /** Messages sent with it. */
  use_count: z.number().int(),
  last_used_at: z.string().nullable(),
  /** The number of its latest version. */
  version: z.number().int(),
  sharing: promptSharingSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Prompt = z.infer<typeof promptSchema>;

export const createPromptSchema = z
  .object({
    title: promptFields.title,
    content: promptFields.content,
    description: promptFields.description.default(''),
    category: promptFields.category.default(''),
    tags: promptFields.tags.default([]),
    favorite: promptFields.favorite.default(false),
  })
  .strict();
export type CreatePrompt = z.input<typeof createPromptSchema>;

/** Any of the fields; a change of title, content, description, category or tags is a new version. */
export const updatePromptSchema = z
  .object({
    title: promptFields.title.optional(),
    content: promptFields.content.optional(),
    description: promptFields.description.optional(),
    category: promptFields.category.optional(),
    tags: promptFields.tags.optional(),
    favorite: promptFields.favorite.optional(),
  })
  .strict()
  .refine((body) => Object.values(body).some((v) => v !== undefined), {
    message: 'Send at least one field to change',
  });
export type UpdatePrompt = z.input<typeof updatePromptSchema>;

export const listPromptsQuerySchema = z.object({
  /** Words in the title, description, content or tags. */
  search: z.string().trim().max(200).optional(),
  category: z.string().trim().max(promptLimits.category).optional(),
  favorite: z
    .enum(['true', 'false'], { error: 'favorite must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  /** Opaque; the `next_cursor` of the previous page. */
  cursor: z.string().max(200).optional(),
});
export type ListPromptsQuery = z.input<typeof listPromptsQuerySchema>;

export const promptPageSchema = z.object({
  items: z.array(promptSchema),
  next_cursor: z.string().nullable(),
  /** Every category the user's prompts have, for the filter. */
  categories: z.array(z.string()),
});
export type PromptPage = z.infer<typeof promptPageSchema>;

export const variableValuesSchema = z.record(
  z.string().max(64),
  text('A value', promptLimits.variableValue),
  { error: 'variables must be an object of names and texts' },
);

export const renderPromptSchema = z
  .object({ variables: variableValuesSchema.default({}) })
  .strict();

/** Every field with its variables filled in. */
export const renderedPromptSchema = z.object({
  title: z.string(),
  content: z.string(),
  description: z.string(),
});
export type RenderedPrompt = z.infer<typeof renderedPromptSchema>;

export const promptVersionSchema = z.object({
  version: z.number().int(),
  title: z.string(),
  content: z.string(),
  description: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  created_at: z.string(),
});
export type PromptVersion = z.infer<typeof promptVersionSchema>;

export const promptVersionsSchema = z.object({ items: z.array(promptVersionSchema) });

/** Submit to the public library (`true`) or withdraw (`false`). */
export const sharePromptSchema = z.object({ public: z.boolean() }).strict();

/** One prompt in an export file. */
export const exportedPromptSchema = z
  .object(
    {
      title: promptFields.title,
      content: promptFields.content,
      description: promptFields.description.default(''),
      category: promptFields.category.default(''),
      tags: promptFields.tags.default([]),
      favorite: promptFields.favorite.default(false),
    },
    { error: 'A prompt must be an object with a title and content' },
  )
  .strip();
export type ExportedPrompt = z.output<typeof exportedPromptSchema>;

export const promptExportFormat = 'chorus.prompts';

/** `GET /rest/v1/prompts/export`, and what `POST /rest/v1/prompts/import` takes. */
export const promptExportSchema = z.object({
  format: z.literal(promptExportFormat),
  version: z.literal(1),
  exported_at: z.string(),
  prompts: z.array(exportedPromptSchema),
});
export type PromptExport = z.infer<typeof promptExportSchema>;

/** The rows are checked one by one, so a bad row refuses only itself. */
export const promptImportSchema = z.object({
  format: z.literal(promptExportFormat, {
    error: `This is not a prompt export: its "format" must be "${promptExportFormat}"`,
  }),
  version: z.literal(1, { error: 'This export version is not known; export again from Chorus' }),
  prompts: z
    .array(z.unknown(), { error: '"prompts" must be a list' })
    .max(
      promptLimits.importRows,
      `One import holds at most ${promptLimits.importRows.toLocaleString('en')} prompts`,
    ),
});

export const promptImportResultSchema = z.object({
  imported: z.number().int(),
  /** Rows not imported: their place in the file (from 1), title when readable, and why. */
  refused: z.array(
    z.object({ row: z.number().int(), title: z.string().nullable(), reasons: z.array(z.string()) }),
  ),
});
export type PromptImportResult = z.infer<typeof promptImportResultSchema>;
