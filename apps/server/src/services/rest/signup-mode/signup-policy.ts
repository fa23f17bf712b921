import { peopleMessages } from '@chorus/shared/messages';
import type { Db } from '../../../db/client.ts';
import { claimInvitation, invitationHolds } from '../../../db/repositories/access-requests.ts';
import { readSignupMode } from '../../../db/repositories/app-settings.ts';
import { hasFirstAccount } from '../../../db/repositories/roles.ts';

export type SignUpDecision = { allowed: true } | { allowed: false; message: string };

/**
 * Runs just before better-auth creates a user (input already validated, address not taken).
 * The first account on an empty database is always allowed. With sign-up by request, the
 * address needs an approved, unexpired, unused invitation, which this spends. A valid invitation
 * used while sign-up is open is spent too, so the request shows as used.
 */
export const decideSignUp = async (
  db: Db,
  email: string,
  invite: string | undefined,
): Promise<SignUpDecision> => {
  const token = invite?.trim();
  if (!(await hasFirstAccount(db))) return { allowed: true };
  if ((await readSignupMode(db)) === 'open') {
    if (token) await claimInvitation(db, email, token);
    return { allowed: true };
  }
  if (!token) return { allowed: false, message: peopleMessages.signUpByRequest };
  if (!(await claimInvitation(db, email, token))) {
    return { allowed: false, message: peopleMessages.invitationInvalid };
  }
  return { allowed: true };
};

/** Where the invitation token of a sign-up may travel: the JSON body or the query string. */
export const inviteFrom = (body: unknown, query: unknown): string | undefined => {
  for (const source of [body, query]) {
    const value = (source as { invite?: unknown } | null | undefined)?.invite;
    if (typeof value === 'string' && value.length > 0 && value.length <= 200) return value;
  }
  return undefined;
};

/**
 * Asked before better-auth sees a sign-up, which would answer 422 for an address that has an
 * account: with sign-up by request, an address without a valid invitation gets the refusal every
 * such address gets, whether or not it has an account (issue 13, point 6). Spends nothing; the
 * create hook above still claims the invitation. Null: let the sign-up through.
 */
export const refuseUninvited = async (
  db: Db,
  email: unknown,
  invite: string | undefined,
): Promise<string | null> => {
  if (!(await hasFirstAccount(db)) || (await readSignupMode(db)) === 'open') return null;
  const token = invite?.trim();
  if (!token) return peopleMessages.signUpByRequest;
  if (typeof email !== 'string' || !(await invitationHolds(db, email.trim(), token))) {
    return peopleMessages.invitationInvalid;
  }
  return null;
};
