import { z } from 'zod';

/** What the public directory holds; agents join when their area exists. */
export const discoverKinds = ['prompt', 'scenario', 'custom_ai'] as const;
export type DiscoverKind = (typeof discoverKinds)[number];

export const discoverQuerySchema = z.object({
  /** Words in the title, description, text or tags. */
  search: z.string().trim().max(200).optional(),
  kind: z.enum(['all', ...discoverKinds]).default('all'),
  category: z.string().trim().max(60).optional(),
  tag: z.string().trim().max(40).optional(),
  /** `most_used`: most copied and run in the last 30 days, then newest. */
  sort: z.enum(['newest', 'most_used']).default('newest'),
  limit: z.coerce.number().int().min(1).max(60).default(24),
  /** Opaque; the `next_cursor` of the previous page (same filters and sort). */
  cursor: z.string().max(300).optional(),
});
export type DiscoverQuery = z.input<typeof discoverQuerySchema>;

const itemFields = {
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  /** The start of the prompt: the prompt's text, or the scenario's prompt (see custom AIs below). */
  preview: z.string(),
  featured: z.boolean(),
  /**
   * The people who copied or ran it in the last 30 days (one person using it often counts once);
   * null when fewer than 5 (too few to show).
   */
  uses: z.number().int().nullable(),
  /** When it was created; for a custom AI, when it was published. */
  created_at: z.string(),
};

/** A prompt of the library or a scenario of the cookbook: "Use" copies it. */
export const discoverItemSchema = z.object({ kind: z.enum(['prompt', 'scenario']), ...itemFields });

/**
 * A published custom AI: `preview` is the start of its instructions (public once published), or
 * its first conversation starter; `tags` is empty. "Start a chat" talks to it, on the caller's
 * keys and quota.
 */
export const discoverCustomAiSchema = z.object({
  kind: z.literal('custom_ai'),
  ...itemFields,
  /** An emoji or up to two letters; empty: its initials. */
  avatar: z.string(),
});

export const discoverEntrySchema = z.discriminatedUnion('kind', [
  discoverItemSchema,
  discoverCustomAiSchema,
]);
export type DiscoverItem = z.infer<typeof discoverEntrySchema>;

export const discoverPageSchema = z.object({
  items: z.array(discoverEntrySchema),
  next_cursor: z.string().nullable(),
  /** Every category and tag of the public items, for the filters. */
  categories: z.array(z.string()),
  tags: z.array(z.string()),
});
export type DiscoverPage = z.infer<typeof discoverPageSchema>;
