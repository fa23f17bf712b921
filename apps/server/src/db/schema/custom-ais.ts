import { sql } from 'drizzle-orm';
import { index, integer, pgTable, real, text, uuid } from 'drizzle-orm/pg-core';
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
    ...timestamps,
  },
  (t) => [index('custom_ais_user_created_idx').on(t.user_id, t.created_at.desc(), t.id)],
);
