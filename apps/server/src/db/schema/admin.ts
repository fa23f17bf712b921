import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { users } from './auth.ts';

export const adminAuditLogs = pgTable(
  'admin_audit_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    admin_id: text('admin_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    table_name: text('table_name').notNull(),
    record_id: text('record_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * True for an entry an admin wrote through `POST /admin/audit-logs`, in words of their
     * choosing; false for one Chorus wrote itself when an admin changed something.
     */
    posted_by_admin: boolean('posted_by_admin').notNull().default(false),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_audit_logs_created_idx').on(t.created_at.desc())],
);

/** Error reports sent by browsers (`POST /rest/v1/client-errors`), read by admins. */
export const clientErrors = pgTable(
  'client_errors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['render', 'async', 'request', 'other'] }).notNull(),
    message: text('message').notNull(),
    stack: text('stack'),
    url: text('url'),
    user_agent: text('user_agent'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('client_errors_created_idx').on(t.created_at.desc())],
);

/** Instance-wide settings edited by super admins (sign-up mode, …). One row per key. */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updated_by: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updated_at: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

/**
 * `/request-access`: while sign-up is by request, an approved request carries a one-time
 * invitation (only its SHA-256 is stored) that lets that address sign up.
 */
export const accessRequests = pgTable(
  'access_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    reason: text('reason').notNull().default(''),
    status: text('status', { enum: ['pending', 'approved', 'declined', 'used'] })
      .notNull()
      .default('pending'),
    invite_token_hash: text('invite_token_hash'),
    invite_expires_at: timestamp('invite_expires_at', { withTimezone: true }),
    decided_by: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decided_at: timestamp('decided_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('access_requests_created_idx').on(t.created_at.desc()),
    uniqueIndex('access_requests_pending_email_key')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.status} = 'pending'`),
    uniqueIndex('access_requests_invite_token_key').on(t.invite_token_hash),
  ],
);
