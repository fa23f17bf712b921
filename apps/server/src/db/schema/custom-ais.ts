import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { timestamps } from './columns.ts';

/**
 * A saved persona (issue 18): instructions, a provider and model, sampling settings, starters
 * and knowledge bases. Chats that use it run on the caller's keys and quota.
 */
export const customAis = pgTable(
  'custom_ais',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    system_prompt: text('system_prompt').notNull().default(''),
    provider: text('provider').notNull(),
    model: text('model'),
    temperature: real('temperature'),
    top_p: real('top_p'),
    max_tokens: integer('max_tokens'),
    starters: text('starters')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** No foreign key on an array: bases deleted since are skipped, and the owner checked, when read. */
    knowledge_base_ids: uuid('knowledge_base_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /**
     * Sharing in /discover (issue 18): `private` by default; the owner asks (`submitted`), an
     * admin curates it into `published` or sends it back (`rejected`, with a note). A published
     * custom AI runs on each caller's keys and quota, never its author's.
     */
    share_status: text('share_status', {
      enum: ['private', 'submitted', 'published', 'rejected'],
    })
      .notNull()
      .default('private'),
    /** Why an admin did not publish it, for the owner. */
    share_note: text('share_note').notNull().default(''),
    category: text('category').notNull().default(''),
    featured: boolean('featured').notNull().default(false),
    share_requested_at: timestamp('share_requested_at', { withTimezone: true }),
    published_at: timestamp('published_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('custom_ais_user_created_idx').on(t.user_id, t.created_at.desc(), t.id),
    index('custom_ais_share_idx').on(t.share_status, t.published_at),
  ],
);
