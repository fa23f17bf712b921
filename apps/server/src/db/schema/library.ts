import { boolean, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { users } from './auth.ts';

/**
 * The public prompt library and scenarios cookbook as admins curate them (`/admin/prompts`).
 * Authors share (`is_public`); admins publish, unpublish and feature.
 */
const curatedColumns = {
  id: uuid('id').primaryKey().defaultRandom(),
  user_id: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  category: text('category').notNull().default('General'),
  is_public: boolean('is_public').notNull().default(false),
  published: boolean('published').notNull().default(false),
  featured: boolean('featured').notNull().default(false),
  ...timestamps,
};

export const prompts = pgTable(
  'prompts',
  {
    ...curatedColumns,
    content: text('content').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
  },
  (t) => [
    index('prompts_user_idx').on(t.user_id),
    index('prompts_published_idx').on(t.published, t.featured),
  ],
);

export const scenarios = pgTable(
  'scenarios',
  {
    ...curatedColumns,
    /** The scenario's opening prompt and follow-up steps, in order. */
    steps: jsonb('steps').$type<string[]>().notNull().default([]),
  },
  (t) => [
    index('scenarios_user_idx').on(t.user_id),
    index('scenarios_published_idx').on(t.published, t.featured),
  ],
);
