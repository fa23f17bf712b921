import { createHash } from 'node:crypto';
import { aliasedTable, and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { AccessRequest, AccessRequestStatus } from '@chorus/shared/api/access-requests';
import type { Db } from '../client.ts';
import { accessRequests, users } from '../schema/index.ts';
import { writeAuditLog } from './audit-logs.ts';

type Row = typeof accessRequests.$inferSelect;

/** Only this hash of an invitation token is ever stored. */
export const hashInviteToken = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex');

const toRequest = (r: Row, decidedByEmail: string | null): AccessRequest => ({
  id: r.id,
  email: r.email,
  reason: r.reason,
  status: r.status,
  created_at: r.created_at.toISOString(),
  decided_at: r.decided_at?.toISOString() ?? null,
  decided_by_email: decidedByEmail,
  invite_expires_at: r.invite_expires_at?.toISOString() ?? null,
});

/**
 * A visitor's request. One pending request per address (the partial unique index): asking again
 * while one is pending changes nothing, so the answer never depends on what exists.
 */
export const submitAccessRequest = async (
  db: Db,
  req: { email: string; reason: string },
): Promise<{ created: boolean }> => {
  const inserted = await db
    .insert(accessRequests)
    .values({ email: req.email.toLowerCase(), reason: req.reason })
    .onConflictDoNothing()
    .returning({ id: accessRequests.id });
  return { created: inserted.length > 0 };
};

export const emailHasAccount = async (db: Db, email: string): Promise<boolean> => {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return Boolean(row);
};

export const findAccessRequestEmail = async (db: Db, id: string): Promise<string | null> => {
  const [row] = await db
    .select({ email: accessRequests.email })
    .from(accessRequests)
    .where(eq(accessRequests.id, id))
    .limit(1);
  return row?.email ?? null;
};

export const countPendingAccessRequests = async (db: Db): Promise<number> => {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(accessRequests)
    .where(eq(accessRequests.status, 'pending'));
  return Number(row?.n ?? 0);
};

const decider = aliasedTable(users, 'decider');

/** Admin-only reading: newest first, optionally one status. */
export const listAccessRequests = async (
  db: Db,
  opts: { status?: AccessRequestStatus | undefined; limit: number; offset: number },
): Promise<{ requests: AccessRequest[]; total: number }> => {
  const where = opts.status ? eq(accessRequests.status, opts.status) : undefined;
  const [rows, [count]] = await Promise.all([
    db
      .select({ r: accessRequests, email: decider.email })
      .from(accessRequests)
      .leftJoin(decider, eq(decider.id, accessRequests.decided_by))
      .where(where)
      .orderBy(desc(accessRequests.created_at), desc(accessRequests.id))
      .limit(opts.limit)
      .offset(opts.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(accessRequests)
      .where(where),
  ]);
  return {
    total: Number(count?.total ?? 0),
    requests: rows.map(({ r, email }) => toRequest(r, email)),
  };
};

export type DecisionResult =
  | { ok: true; request: AccessRequest }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'already_decided'; status: AccessRequestStatus };

/** Decisions of one admin; each writes its audit row in the same transaction. */
export class AccessRequestsAdmin {
  constructor(
    private readonly db: Db,
    private readonly adminId: string,
  ) {}

  /**
   * Approves a pending (or declined, or earlier approved) request with a fresh invitation: an
   * earlier link of the same request stops working. A used request cannot be approved again.
   */
  async approve(id: string, tokenHash: string, expiresAt: Date): Promise<DecisionResult> {
    return this.decide(id, ['pending', 'declined', 'approved'], {
      status: 'approved',
      invite_token_hash: tokenHash,
      invite_expires_at: expiresAt,
    });
  }

  async decline(id: string): Promise<DecisionResult> {
    return this.decide(id, ['pending', 'approved'], {
      status: 'declined',
      invite_token_hash: null,
      invite_expires_at: null,
    });
  }

  private async decide(
    id: string,
    from: AccessRequestStatus[],
    set: Pick<Row, 'status' | 'invite_token_hash' | 'invite_expires_at'>,
  ): Promise<DecisionResult> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(accessRequests)
        .where(eq(accessRequests.id, id))
        .for('update');
      if (!current) return { ok: false, reason: 'not_found' } as const;
      if (!from.includes(current.status)) {
        return { ok: false, reason: 'already_decided', status: current.status } as const;
      }
      const [updated] = await tx
        .update(accessRequests)
        .set({ ...set, decided_by: this.adminId, decided_at: new Date(), updated_at: new Date() })
        .where(and(eq(accessRequests.id, id), inArray(accessRequests.status, from)))
        .returning();
      await writeAuditLog(tx, this.adminId, {
        action: set.status === 'approved' ? 'approve_access_request' : 'decline_access_request',
        table_name: 'access_requests',
        record_id: id,
        details: {
          email: current.email,
          from: current.status,
          to: set.status,
          ...(set.invite_expires_at && {
            invite_expires_at: set.invite_expires_at.toISOString(),
          }),
        },
      });
      const [me] = await tx
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, this.adminId));
      return { ok: true, request: toRequest(updated!, me?.email ?? null) } as const;
    });
  }
}

/**
 * Spends an invitation: the one approved, unexpired request of this address with this token
 * becomes `used`. Atomic, so one link signs up one account even under concurrent sign-ups.
 */
/** Whether `token` is an approved, unexpired, unused invitation of `email` (nothing is spent). */
export const invitationHolds = async (db: Db, email: string, token: string): Promise<boolean> => {
  const [row] = await db
    .select({ id: accessRequests.id })
    .from(accessRequests)
    .where(
      and(
        eq(accessRequests.invite_token_hash, hashInviteToken(token)),
        eq(accessRequests.status, 'approved'),
        sql`lower(${accessRequests.email}) = ${email.toLowerCase()}`,
        gt(accessRequests.invite_expires_at, new Date()),
      ),
    )
    .limit(1);
  return row !== undefined;
};

export const claimInvitation = async (db: Db, email: string, token: string): Promise<boolean> => {
  const claimed = await db
    .update(accessRequests)
    .set({ status: 'used', updated_at: new Date() })
    .where(
      and(
        eq(accessRequests.invite_token_hash, hashInviteToken(token)),
        eq(accessRequests.status, 'approved'),
        sql`lower(${accessRequests.email}) = ${email.toLowerCase()}`,
        gt(accessRequests.invite_expires_at, new Date()),
      ),
    )
    .returning({ id: accessRequests.id });
  return claimed.length > 0;
};
