import { randomBytes } from 'node:crypto';
import { INVITATION_VALID_DAYS } from '@chorus/shared/api/access-requests';
import { messageFor } from '@chorus/shared/error-catalogue';
import {
  AccessRequestsAdmin,
  emailHasAccount,
  findAccessRequestEmail,
  hashInviteToken,
  listAccessRequests,
  type DecisionResult,
} from '../../../../db/repositories/access-requests.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { ApiError } from '../../../../http/errors.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { invitationEmail, invitationLink } from '../../access-requests/invitation-email.ts';
import {
  approveAccessRequestRoute,
  declineAccessRequestRoute,
  listAccessRequestsRoute,
} from './access-requests.routes.ts';

const decided = (result: DecisionResult) => {
  if (result.ok) return result.request;
  if (result.reason === 'not_found') {
    throw new ApiError(404, 'access_requests:not_found');
  }
  throw new ApiError(
    409,
    'access_requests:decided',
    messageFor('access_requests:decided', { status: result.status }),
  );
};

export const adminAccessRequestsRouter = createRouter<AuthedEnv>()
  .openapi(listAccessRequestsRoute, async (c) =>
    c.json(await listAccessRequests(c.var.deps.database.db, c.req.valid('query')), 200),
  )
  .openapi(approveAccessRequestRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { database, config, mailer, log } = c.var.deps;
    const admin = new AccessRequestsAdmin(database.db, c.var.user.id);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + INVITATION_VALID_DAYS * 24 * 60 * 60 * 1000);
    const email = await findAccessRequestEmail(database.db, id);
    // Signed up in the meantime (while sign-up was open, say): there is no one to invite.
    if (email && (await emailHasAccount(database.db, email))) {
      throw new ApiError(409, 'access_requests:has_account');
    }
    const request = decided(await admin.approve(id, hashInviteToken(token), expiresAt));
    await mailer.send({
      ...invitationEmail({
        to: request.email,
        inviteLink: invitationLink(config.appUrl, token, request.email),
        expiresAt,
        supportEmail: config.supportEmail,
      }),
      // The admin who approved sees the mail in the outbox, never the link that signs up.
      secrets: [token],
    });
    log.info({ adminId: c.var.user.id, requestId: id }, 'access request approved');
    return c.json(request, 200);
  })
  .openapi(declineAccessRequestRoute, async (c) => {
    const { id } = c.req.valid('param');
    const admin = new AccessRequestsAdmin(c.var.deps.database.db, c.var.user.id);
    const request = decided(await admin.decline(id));
    c.var.deps.log.info({ adminId: c.var.user.id, requestId: id }, 'access request declined');
    return c.json(request, 200);
  });
