import type { Config } from '../config.ts';
import { emailIdentity } from './identity.ts';
import { welcomeEmail } from './templates/welcome.tsx';
import type { Mailer } from './transport.ts';

/**
 * The welcome mail after a sign-up. It runs beside the sign-up, never in its way: whatever goes
 * wrong is logged (and the outbox row shows it), and the account stands.
 */
export const sendWelcomeEmail = (
  deps: { config: Config; mailer: Mailer },
  user: { id: string; email: string; name: string | null },
): void =>
  deps.mailer.sendInBackground(
    () =>
      welcomeEmail({
        identity: emailIdentity(deps.config),
        to: user.email,
        userName: user.name ?? '',
      }),
    { userId: user.id, template: 'welcome' },
  );
