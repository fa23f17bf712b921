import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: jsonb('to').$type<string[]>().notNull(),
    from: text('from').notNull(),
    reply_to: text('reply_to'),
    subject: text('subject').notNull(),
    /** What the back office shows: token-bearing links (reset, invitation, unsubscribe) hidden. */
    html: text('html').notNull(),
    text: text('text'),
    /**
     * The mail as sent, when it differs from the display copy: sealed (AES-GCM, like provider
     * keys), opened only to send it, and erased once it is sent.
     */
    sealed_body: text('sealed_body'),
    /**
     * The copy an admin who is not a super admin reads, when the mail holds a user's own content
     * (a run's prompt and reply, names they chose): that content replaced by a marker, and the
     * one-time links hidden as above. Null for mail without user content.
     */
    without_content: jsonb('without_content').$type<{
      subject: string;
      html: string;
      text: string;
    }>(),
    template: text('template'),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last change of status or attempt: a `pending` row left alone too long is sent again. */
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    sent_at: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('email_outbox_created_idx').on(t.created_at.desc()),
    index('email_outbox_pending_idx')
      .on(t.updated_at)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** Addresses that opted out of welcome and notification mail (`/unsubscribe`). Lower-cased. */
export const emailUnsubscribes = pgTable('email_unsubscribes', {
  email: text('email').primaryKey(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
