import { toPlainText } from '@react-email/components';
import { userMessageEmail } from '../../../email/templates/user-message.tsx';
import type { SendEmailRequest } from '@chorus/shared/api/email';
import { isValidRecipient } from '@chorus/shared/email';
import { messageFor } from '@chorus/shared/error-catalogue';
import { isAdminRole } from '@chorus/shared/roles';
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

const missingFields = () => new ApiError(400, 'email:missing_fields');

/** `Name <address>` or a bare address → the address. */
const addressOf = (value: string) => (/<([^<>]+)>\s*$/.exec(value)?.[1] ?? value).trim();

const recipientsOf = (to: SendEmailRequest['to']): string[] =>
  (Array.isArray(to) ? to : to === undefined ? [] : [to]).map((address) => address.trim());

/** Builds the mail the request describes, or throws the spec's 400. */
const composeMail = async (
  body: SendEmailRequest,
  to: string[],
  identity: ReturnType<typeof emailIdentity>,
  sender: { email: string; isAdmin: boolean },
): Promise<OutgoingEmail> => {
  const subject = body.subject!.trim();
  if (!body.type) {
    const html = body.html!;
    const text = body.text ?? toPlainText(html);
    // Staff write the workspace's own mail; anyone else's words go out inside our template.
    if (sender.isAdmin) return { to, subject, html, text, template: 'custom' };
    return userMessageEmail({ identity, to, subject, sender: sender.email, message: text });
  }
  if (to.length !== 1) {
    throw new ApiError(400, 'email:one_recipient');
  }
  const recipient = to[0]!;
  if (body.type === 'password_reset') {
    const resetLink = body.resetLink?.trim() ?? '';
    if (!resetLink.startsWith(`${identity.appUrl}/`)) {
      throw new ApiError(
        400,
        'email:reset_link',
        messageFor('email:reset_link', { appUrl: identity.appUrl }),
      );
    }
    const mail = await passwordResetEmail({
      identity,
      to: recipient,
      userName: body.userName ?? '',
      resetLink,
      subject,
    });
    // The link works for its recipient only: the outbox shows the mail without its query.
    const query = resetLink.split('?')[1];
    return query ? { ...mail, secrets: [query, ...query.split('&')] } : mail;
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
  const { config, mailer } = c.var.deps;
  const to = recipientsOf(body.to);
  if (to.length === 0 || to.every((a) => a === '') || !body.subject?.trim()) throw missingFields();
  if (!body.type && !body.html?.trim()) throw missingFields();
  for (const address of to) {
    if (!isValidRecipient(address)) {
      throw new ApiError(
        400,
        'email:invalid_format',
        messageFor('email:invalid_format', { email: address }),
      );
    }
  }
  const replyToRaw = body.replyTo ?? body.from;
  const replyTo = replyToRaw?.trim() ? addressOf(replyToRaw) : undefined;
  if (replyTo !== undefined && !isValidRecipient(replyTo)) {
    throw new ApiError(
      400,
      'email:invalid_format',
      messageFor('email:invalid_format', { email: replyTo }),
    );
  }

  // No open relay: a plain user reaches only their own inbox and support.
  if (!isAdminRole(c.var.role)) {
    const allowed = new Set([c.var.user.email.toLowerCase(), config.supportEmail.toLowerCase()]);
    const refused = [...to, ...(replyTo ? [replyTo] : [])].find(
      (address) => !allowed.has(address.toLowerCase()),
    );
    if (refused) {
      throw new ApiError(
        403,
        'email:recipient_not_allowed',
        messageFor('email:recipient_not_allowed', { support: config.supportEmail, refused }),
      );
    }
  }

  const mail = await composeMail(body, to, emailIdentity(config), {
    email: c.var.user.email,
    isAdmin: isAdminRole(c.var.role),
  });
  const result = await mailer.send({ ...mail, replyTo });
  c.var.deps.log.info(
    { userId: c.var.user.id, outboxId: result.outboxId, template: mail.template },
    'send-email',
  );
  return c.json({ success: true as const, id: result.outboxId, status: result.status }, 200);
});
