import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { users } from './auth.ts';

export const userApiKeys = pgTable(
  'user_api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** AES-256-GCM ciphertext (ARCHITECTURE §4); never the key itself. */
    api_key: text('api_key').notNull(),
    /** Masked hint such as `sk-…a1b2`, safe to return. */
    key_hint: text('key_hint').notNull(),
    model: text('model'),
    ...timestamps,
  },
  (t) => [uniqueIndex('user_api_keys_user_provider_key').on(t.user_id, t.provider)],
);

/**
 * Admin-managed keys per provider: `system` keys back every user of an enabled provider,
 * `default` keys back the users they were granted to (user_api_key_grants).
 */
export const systemApiKeys = pgTable(
  'system_api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    kind: text('kind', { enum: ['system', 'default'] }).notNull(),
    api_key: text('api_key').notNull(),
    key_hint: text('key_hint').notNull(),
    model: text('model'),
    ...timestamps,
  },
  (t) => [uniqueIndex('system_api_keys_provider_kind_key').on(t.provider, t.kind)],
);

/**
 * A user's grant of an admin `default` key, by reference (copy-system-api-keys): the ciphertext
 * stays in one place, so rotating the admin key reaches every grantee at once and deleting it
 * removes the grants with it.
 */
export const userApiKeyGrants = pgTable(
  'user_api_key_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    system_key_id: uuid('system_key_id')
      .notNull()
      .references(() => systemApiKeys.id, { onDelete: 'cascade' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_api_key_grants_user_key').on(t.user_id, t.system_key_id),
    index('user_api_key_grants_system_key_idx').on(t.system_key_id),
  ],
);

export const providerSettings = pgTable('provider_settings', {
  provider: text('provider').primaryKey(),
  enabled: boolean('enabled').notNull().default(true),
  updated_at: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});
