import { emailIdentity } from '../../../email/identity.ts';
import { contactEmail } from '../../../email/templates/contact.tsx';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { contactRoute } from './contact.routes.ts';
import { messageFor } from '@chorus/shared/error-catalogue';

/** A name goes into the subject line: one line of it. */
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

export const contactRouter = createRouter().openapi(contactRoute, async (c) => {
  const { name, email, message } = c.req.valid('json');
  const { config, mailer, log } = c.var.deps;
  const result = await mailer.send(
    await contactEmail({ identity: emailIdentity(config), name: oneLine(name), email, message }),
  );
  log.info({ outboxId: result.outboxId, status: result.status }, 'contact form message');
  if (result.status === 'failed') {
    throw new ApiError(
      502,
      'email:delivery_failed',
      messageFor('email:delivery_failed', { support: config.supportEmail }),
    );
  }
  return c.json({ success: true as const }, 200);
});
