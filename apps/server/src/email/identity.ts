import type { Config } from '../config.ts';
import type { EmailIdentity } from './templates/layout.tsx';
import { createUnsubscribeTokens } from './unsubscribe-token.ts';

export const emailIdentity = (config: Config): EmailIdentity => ({
  appUrl: config.appUrl,
  mailFrom: config.mailFrom,
  supportEmail: config.supportEmail,
  unsubscribeToken: createUnsubscribeTokens(config.authSecret).sign,
});
