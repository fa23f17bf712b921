import { z } from 'zod';
import { providerIdSchema } from './keys.ts';

/**
 * Custom AIs (issue 18): a saved persona — instructions, a provider and model, parameters,
 * conversation starters and knowledge bases — usable as the "model" of any chat. It runs on the
 * caller's keys and quota.
 */
export const customAiLimits = {
  name: 80,
  description: 500,
  /** An emoji or up to two letters. */
  avatar: 8,
  systemPrompt: 20_000,
  starter: 200,
  starters: 6,
  knowledgeBases: 10,
  /** Custom AIs one user may keep. */
  perUser: 200,
  /** As the filters of /discover take it. */
  category: 60,
  shareNote: 500,
} as const;

const text = (label: string, max: number) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${label} is missing` : `${label} must be text`,
    })
    .trim()
    .max(max, `${label} is at most ${max.toLocaleString('en')} characters`);

/** Sampling settings; null means the provider's default. */
export const customAiParametersSchema = z.object({
  temperature: z
    .number({ error: 'The temperature must be a number' })
    .min(0, 'The temperature is between 0 and 2')
    .max(2, 'The temperature is between 0 and 2')
    .nullable()
    .default(null),
  top_p: z
    .number({ error: 'Top P must be a number' })
    .min(0, 'Top P is between 0 and 1')
    .max(1, 'Top P is between 0 and 1')
    .nullable()
    .default(null),
  max_tokens: z
    .number({ error: 'The reply length must be a number' })
    .int('The reply length is a whole number of tokens')
    .min(1, 'The reply length is at least 1 token')
    .max(200_000, 'The reply length is at most 200,000 tokens')
    .nullable()
    .default(null),
});
export type CustomAiParameters = z.infer<typeof customAiParametersSchema>;

/**
 * Sharing in /discover: `private` by default; the owner asks (`submitted`), an admin publishes it
 * (`published`) or sends it back with a note (`rejected`). Any change to a published custom AI
 * sends it back to `submitted` (out of /discover) until an admin publishes it again. A published
 * one runs with each caller's keys and quota, never its author's.
 */
export const customAiShareStatuses = ['private', 'submitted', 'published', 'rejected'] as const;
export type CustomAiShareStatus = (typeof customAiShareStatuses)[number];

export const customAiSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  avatar: z.string(),
  system_prompt: z.string(),
  provider: providerIdSchema,
  /** Null: the provider's default model. */
  model: z.string().nullable(),
  parameters: customAiParametersSchema,
  starters: z.array(z.string()),
  /** The knowledge bases its replies search and cite (yours; ones deleted since are skipped). */
  knowledge_base_ids: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  /*
   * Sharing in /discover. The server always sends these; they are optional so that clients and
   * fixtures written before sharing stay valid (absent: private, and yours).
   */
  /** See `customAiShareStatuses`. */
  share_status: z.enum(customAiShareStatuses).optional(),
  /** Why an admin did not publish it (`rejected`); empty otherwise, and for anyone but its owner. */
  share_note: z.string().optional(),
  /** Its category in /discover, chosen when shared. */
  category: z.string().optional(),
  /**
   * False for a published custom AI of someone else: its instructions are public, but its
   * knowledge bases are not (`knowledge_base_ids` is empty) and it cannot be changed.
   */
  owned: z.boolean().optional(),
});
export type CustomAi = z.infer<typeof customAiSchema>;

export const customAiListSchema = z.object({ custom_ais: z.array(customAiSchema) });

const fields = {
  name: text('The name', customAiLimits.name).min(1, 'Give the custom AI a name'),
  description: text('The description', customAiLimits.description),
  avatar: text('The avatar', customAiLimits.avatar),
  system_prompt: text('The instructions', customAiLimits.systemPrompt),
  provider: providerIdSchema,
  model: text('The model', 200).min(1, 'Pick a model').nullable(),
  parameters: customAiParametersSchema,
  starters: z
    .array(
      text('A conversation starter', customAiLimits.starter).min(
        1,
        'A conversation starter cannot be empty',
      ),
      { error: 'Conversation starters must be a list of texts' },
    )
    .max(customAiLimits.starters, `At most ${customAiLimits.starters} conversation starters`),
  knowledge_base_ids: z
    .array(z.uuid('Not a knowledge base id'), { error: 'knowledge_base_ids must be a list of ids' })
    .max(
      customAiLimits.knowledgeBases,
      `Attach at most ${customAiLimits.knowledgeBases} knowledge bases`,
    )
    .transform((ids) => [...new Set(ids)]),
};

export const createCustomAiSchema = z.object({
  name: fields.name,
  description: fields.description.default(''),
  avatar: fields.avatar.default(''),
  system_prompt: fields.system_prompt.default(''),
  provider: fields.provider,
  model: fields.model.default(null),
  parameters: fields.parameters.default({ temperature: null, top_p: null, max_tokens: null }),
  starters: fields.starters.default([]),
  knowledge_base_ids: fields.knowledge_base_ids.default([]),
});
export type CreateCustomAi = z.input<typeof createCustomAiSchema>;

export const updateCustomAiSchema = z
  .object(fields)
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'Send at least one field to change' });
export type UpdateCustomAi = z.input<typeof updateCustomAiSchema>;

export const shareCustomAiSchema = z.object({
  category: text('The category', customAiLimits.category).min(1, 'Pick a category'),
});
export type ShareCustomAi = z.input<typeof shareCustomAiSchema>;

/** Admin curation (issue 18): what owners shared, or what is published. */
export const adminCustomAisQuerySchema = z.object({
  status: z.enum(['submitted', 'published']).default('submitted'),
});

export const adminCustomAiSchema = customAiSchema.extend({
  user_id: z.string(),
  /** Null once the author's account is gone. */
  author_email: z.string().nullable(),
  featured: z.boolean(),
  share_requested_at: z.string().nullable(),
  published_at: z.string().nullable(),
});
export type AdminCustomAi = z.infer<typeof adminCustomAiSchema>;

export const adminCustomAisResponseSchema = z.object({ custom_ais: z.array(adminCustomAiSchema) });
export type AdminCustomAisResponse = z.infer<typeof adminCustomAisResponseSchema>;

export const publishCustomAiSchema = z
  .object({ featured: z.boolean({ error: 'featured is true or false' }).default(false) })
  .strict();
export type PublishCustomAi = z.input<typeof publishCustomAiSchema>;

export const rejectCustomAiSchema = z
  .object({
    note: text('The note', customAiLimits.shareNote).min(
      1,
      'Say why it is not published, so its owner can fix it',
    ),
  })
  .strict();
export type RejectCustomAi = z.input<typeof rejectCustomAiSchema>;
