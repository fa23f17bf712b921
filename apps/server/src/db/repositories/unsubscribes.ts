import { inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { emailUnsubscribes } from '../schema/index.ts';

const normalise = (email: string) => email.trim().toLowerCase();

/** Records an opt-out; doing it twice is the same as once. */
export const recordUnsubscribe = async (db: Db, email: string): Promise<string> => {
  const address = normalise(email);
  await db.insert(emailUnsubscribes).values({ email: address }).onConflictDoNothing();
  return address;
};

/** The addresses among `emails` that opted out, lower-cased. */
export const unsubscribedAmong = async (db: Db, emails: string[]): Promise<Set<string>> => {
  const wanted = [...new Set(emails.map(normalise))];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ email: emailUnsubscribes.email })
    .from(emailUnsubscribes)
    .where(inArray(emailUnsubscribes.email, wanted));
  return new Set(rows.map((r) => r.email));
};
