import { toPlainText } from '@react-email/components';
import type { SendEmailRequest } from '@chorus/shared/api/email';
import { emailMessages, isValidRecipient } from '@chorus/shared/email';
import { findRole } from '../../../db/repositories/roles.ts';
import { emailIdentity } from '../../../email/identity.ts';
import { passwordResetEmail } from '../../../email/templates/password-reset.tsx';
import {
  RunNotificationError,
  runNotificationEmail,
} from '../../../email/templates/run-notification.tsx';
import type { OutgoingEmail } from '../../../email/transport.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { sendEmailRoute } from './send-email.routes.ts';

const missingFields = () => new ApiError(400, 'email:missing_fields', emailMessages.missingFields);

/** `Name <address>` or a bare address → the address. */
const addressOf = (value: string) => (/<([^<>]+)>\s*$/.exec(value)?.[1] ?? value).trim();

const recipientsOf = (to: SendEmailRequest['to']): string[] =>
  (Array.isArray(to) ? to : to === undefined ? [] : [to]).map((address) => address.trim());

/** Builds the mail the request describes, or throws the spec's 400. */
const composeMail = async (
  body: SendEmailRequest,
  to: string[],
  identity: ReturnType<typeof emailIdentity>,
): Promise<OutgoingEmail> => {
  const subject = body.subject!.trim();
  if (!body.type) {
    const html = body.html!;
    return { to, subject, html, text: body.text ?? toPlainText(html), template: 'custom' };
  }
  if (to.length !== 1) {
    throw new ApiError(400, 'email:one_recipient', 'A templated e-mail goes to one recipient.');
  }
  const recipient = to[0]!;
  if (body.type === 'password_reset') {
    const resetLink = body.resetLink?.trim() ?? '';
    if (!resetLink.startsWith(`${identity.appUrl}/`)) {
      throw new ApiError(
        400,
        'email:reset_link',
        `resetLink must be a link on ${identity.appUrl}.`,
      );
    }
    return passwordResetEmail({
      identity,
      to: recipient,
      userName: body.userName ?? '',
      resetLink,
      subject,
    });
  }
  try {
    return await runNotificationEmail({
      identity,
      subject,
      notification: {
        kind: body.type,
        to: recipient,
        runName: body.runName,
        responseText: body.responseText,
        provider: body.provider,
        model: body.model,
      },
    });
  } catch (error) {
    if (error instanceof RunNotificationError) {
      throw new ApiError(400, 'email:run_notification', error.message);
    }
    throw error;
  }
};

export const sendEmailRouter = createRouter<AuthedEnv>().openapi(sendEmailRoute, async (c) => {
  const body = c.req.valid('json');
  const { config, database, mailer } = c.var.deps;
  const to = recipientsOf(body.to);
  if (to.length === 0 || to.every((a) => a === '') || !body.subject?.trim()) throw missingFields();
  if (!body.type && !body.html?.trim()) throw missingFields();
  for (const address of to) {
    if (!isValidRecipient(address)) {
      throw new ApiError(400, 'email:invalid_format', emailMessages.invalidRecipient(address));
    }
  }
  const replyToRaw = body.replyTo ?? body.from;
  const replyTo = replyToRaw?.trim() ? addressOf(replyToRaw) : undefined;
  if (replyTo !== undefined && !isValidRecipient(replyTo)) {
    throw new ApiError(400, 'email:invalid_format', emailMessages.invalidRecipient(replyTo));
  }

  // No open relay: a plain user reaches only their own inbox and support.
  const role = await findRole(database.db, c.var.user.id);
  if (role !== 'admin' && role !== 'super_admin') {
    const allowed = new Set([c.var.user.email.toLowerCase(), config.supportEmail.toLowerCase()]);
    const refused = [...to, ...(replyTo ? [replyTo] : [])].find(
      (address) => !allowed.has(address.toLowerCase()),
    );
    if (refused) {
      throw new ApiError(
        403,
        'email:recipient_not_allowed',
        `You can send e-mail only to your own address or to ${config.supportEmail}; ${refused} is not allowed.`,
      );
    }
  }

  const mail = await composeMail(body, to, emailIdentity(config));
  const result = await mailer.send({ ...mail, replyTo });
  c.var.deps.log.info(
    { userId: c.var.user.id, outboxId: result.outboxId, template: mail.template },
    'send-email',
  );
  return c.json({ success: true as const, id: result.outboxId, status: result.status }, 200);
});
