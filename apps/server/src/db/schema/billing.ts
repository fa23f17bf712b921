import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { pricingPlans } from './accounts.ts';

export const stripeSubscriptions = pgTable(
  'stripe_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stripe_customer_id: text('stripe_customer_id'),
    stripe_subscription_id: text('stripe_subscription_id').unique(),
    plan_id: uuid('plan_id').references(() => pricingPlans.id, { onDelete: 'set null' }),
    status: text('status').notNull(),
    current_period_end: timestamp('current_period_end', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stripe_subscriptions_user_created_idx').on(t.user_id, t.created_at.desc())],
);
