import { pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One row per running server process, renewed by its heartbeat (`db/instance-lease.ts`). A reply
 * still `streaming` belongs to the instance that stamped it; it is abandoned only once that
 * instance's lease has run out (or its row is gone), so one instance starting or sweeping never
 * touches another's live replies. Times come from the database clock alone.
 */
export const serverInstances = pgTable('server_instances', {
  id: uuid('id').primaryKey(),
  started_at: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  heartbeat_at: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  lease_expires_at: timestamp('lease_expires_at', { withTimezone: true }).notNull(),
});
