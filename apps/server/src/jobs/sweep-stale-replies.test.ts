import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '@chorus/shared/api/conversations';
import { renewLease } from '../db/repositories/instances.ts';
import { interruptAbandonedReplies } from '../db/repositories/messages.ts';
import { messages, serverInstances } from '../db/schema/index.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { waitFor } from '../test/streams.ts';
import { sweepStaleRepliesJob } from './sweep-stale-replies.ts';

// Replies are left `streaming` by instances in every state: this one, another live one, one whose
// lease ran out, one whose row is gone, and none at all (before leases). Only the gone ones'
// replies may be recovered, by the sweeper job or at start.

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ jobs: true });
});
afterAll(() => t.close());

const streamingReplies = async () => {
  const ann = await t.user(`sweep-${randomUUID().slice(0, 8)}@example.com`);
  const conv = (await ann.post<Conversation>('/rest/v1/conversations', {})).body;
  const live = randomUUID();
  const expired = randomUUID();
  await renewLease(t.db, live, 60_000);
  await t.db.insert(serverInstances).values({
    id: expired,
    lease_expires_at: sql`now() - interval '1 second'`,
  });
  const owners = {
    self: t.deps.instance.id,
    otherLive: live,
    otherExpired: expired,
    otherMissing: randomUUID(),
    none: null,
  };
  const ids: Record<string, string> = {};
  for (const [name, instance] of Object.entries(owners)) {
    const [row] = await t.db
      .insert(messages)
      .values({
        conversation_id: conv.id,
        user_id: ann.id,
        role: 'assistant',
        content: `partial of ${name}`,
        status: 'streaming',
        instance_id: instance,
      })
      .returning({ id: messages.id });
    ids[name] = row!.id;
  }
  const statuses = async () => {
    const rows = await t.db
      .select({ id: messages.id, status: messages.status, content: messages.content })
      .from(messages)
      .where(inArray(messages.id, Object.values(ids)));
    return Object.fromEntries(
      Object.entries(ids).map(([name, id]) => [name, rows.find((r) => r.id === id)!.status]),
    );
  };
  return { statuses, ids, live };
};

describe('stale streaming replies', () => {
  it('are recovered by the sweeper job only when their instance is gone, with their text', async () => {
    const { statuses, ids } = await streamingReplies();
    await t.deps.jobs.send(sweepStaleRepliesJob.name, {});
    await waitFor(async () => (await statuses()).none === 'interrupted', 15_000);
    expect(await statuses()).toEqual({
      self: 'streaming',
      otherLive: 'streaming',
      otherExpired: 'interrupted',
      otherMissing: 'interrupted',
      none: 'interrupted',
    });
    const [kept] = await t.db.select().from(messages).where(eq(messages.id, ids.otherExpired!));
    expect(kept!.content).toBe('partial of otherExpired');
  });

  it('are all recovered at start on the embedded database, which one process owns, but this one', async () => {
    const { statuses } = await streamingReplies();
    await interruptAbandonedReplies(t.db, { allBut: t.deps.instance.id });
    expect(await statuses()).toEqual({
      self: 'streaming',
      otherLive: 'interrupted',
      otherExpired: 'interrupted',
      otherMissing: 'interrupted',
      none: 'interrupted',
    });
  });

  it('forgets instances whose lease ran out a day ago, and keeps the rest', async () => {
    const old = randomUUID();
    await t.db.insert(serverInstances).values({
      id: old,
      lease_expires_at: sql`now() - interval '25 hours'`,
    });
    await t.deps.jobs.send(sweepStaleRepliesJob.name, {});
    await waitFor(
      async () =>
        (await t.db.select().from(serverInstances).where(eq(serverInstances.id, old))).length === 0,
      15_000,
    );
    const [self] = await t.db
      .select()
      .from(serverInstances)
      .where(eq(serverInstances.id, t.deps.instance.id));
    expect(self).toBeDefined();
  });
});
