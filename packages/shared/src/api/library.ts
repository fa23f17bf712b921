import { z } from 'zod';

/** The two curated collections: the prompt library and the scenarios cookbook. */
export const libraryKinds = ['prompts', 'scenarios'] as const;
export type LibraryKind = (typeof libraryKinds)[number];

const curatedBase = {
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  published: z.boolean(),
  featured: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const libraryPromptSchema = z.object({
  ...curatedBase,
  content: z.string(),
  tags: z.array(z.string()),
});
export type LibraryPrompt = z.infer<typeof libraryPromptSchema>;

export const libraryScenarioSchema = z.object({
  ...curatedBase,
  steps: z.array(z.string()),
  system_prompt: z.string(),
  /** What "Use this scenario" puts in the copy's prompt (its steps, joined, when not set). */
  user_prompt: z.string(),
  targets: z.array(z.object({ provider: z.string(), model: z.string() })),
});
export type LibraryScenario = z.infer<typeof libraryScenarioSchema>;

/** What admins see in addition: who wrote it and whether the author shared it. */
const adminExtra = {
  user_id: z.string().nullable(),
  author_email: z.string().nullable(),
  is_public: z.boolean(),
};
export const adminPromptSchema = libraryPromptSchema.extend(adminExtra);
export type AdminPrompt = z.infer<typeof adminPromptSchema>;
export const adminScenarioSchema = libraryScenarioSchema.extend(adminExtra);
export type AdminScenario = z.infer<typeof adminScenarioSchema>;

/** `published`: all (default), published or unpublished; `search` looks in title and description. */
export const adminLibraryQuerySchema = z.object({
  status: z.enum(['all', 'published', 'unpublished', 'featured']).default('all'),
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type AdminLibraryQuery = z.output<typeof adminLibraryQuerySchema>;

export const adminPromptsResponseSchema = z.object({
  items: z.array(adminPromptSchema),
  total: z.number().int(),
});
export type AdminPromptsResponse = z.infer<typeof adminPromptsResponseSchema>;
export const adminScenariosResponseSchema = z.object({
  items: z.array(adminScenarioSchema),
  total: z.number().int(),
});
export type AdminScenariosResponse = z.infer<typeof adminScenariosResponseSchema>;

/** Publish, unpublish, feature or unfeature. Featuring an entry also publishes it. */
export const curationPatchSchema = z
  .object({ published: z.boolean().optional(), featured: z.boolean().optional() })
  .strict()
  .refine((v) => v.published !== undefined || v.featured !== undefined, {
    message: 'Send `published` or `featured`',
  });
export type CurationPatch = z.infer<typeof curationPatchSchema>;

const text = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} is at most ${max.toLocaleString('en')} characters`);

const curatedCreate = {
  title: text('The title', 200).min(1, 'Give it a title'),
  description: text('The description', 2_000).default(''),
  category: text('The category', 60)
    .transform((v) => v || 'General')
    .default('General'),
  published: z.boolean().default(true),
  featured: z.boolean().default(false),
};

export const createLibraryPromptSchema = z
  .object({
    ...curatedCreate,
    content: text('The prompt', 20_000).min(1, 'Write the prompt'),
    tags: z.array(text('A tag', 40).min(1)).max(20, 'At most 20 tags').default([]),
  })
  .strict();
export type CreateLibraryPrompt = z.input<typeof createLibraryPromptSchema>;

export const createLibraryScenarioSchema = z
  .object({
    ...curatedCreate,
    steps: z
      .array(text('A step', 20_000).min(1, 'A step cannot be empty'))
      .min(1, 'Add at least one step')
      .max(50, 'At most 50 steps'),
  })
  .strict();
export type CreateLibraryScenario = z.input<typeof createLibraryScenarioSchema>;

export const libraryPromptsResponseSchema = z.object({ items: z.array(libraryPromptSchema) });
export type LibraryPromptsResponse = z.infer<typeof libraryPromptsResponseSchema>;
export const libraryScenariosResponseSchema = z.object({ items: z.array(libraryScenarioSchema) });
export type LibraryScenariosResponse = z.infer<typeof libraryScenariosResponseSchema>;
