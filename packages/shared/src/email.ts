import type { RateLimitWindow } from './limits.ts';

/** Spec §5 and §8: the e-mail strings, written once for the server, the web app and the tests. */
export const emailMessages = {
  missingFields: 'Missing required email fields: to, subject, and html are required',
  invalidRecipient: (email: string) => `Invalid email format: ${email}`,
  /** Run notifications (spec §5). */
  invalidFormat: 'Invalid email format',
  missingData: 'Missing required data',
  noResponseText: 'No response text provided',
  /** Client helpers (spec §8). */
  serviceError: (message: string) => `Email service error: ${message}`,
  unknownFunctionError: 'Unknown error from edge function',
  missingInformation: 'Cannot send email - missing required information',
  invalidAddress: 'Cannot send email - invalid email address',
  testRunNotificationFailed: (reason: string) => `Failed to send test run notification: ${reason}`,
  testRunNotificationSent: 'Test run notification sent successfully',
} as const;

/**
 * What stands in for a user's own content in the outbox copy an admin reads: the prompt and
 * reply of a run, the names they gave their runs and widgets, their words in a mail to
 * themselves. Only a super admin reads the mail whole (docs/SECURITY.md, "Mail").
 */
export const hiddenContentMarker = '[hidden: user content]';

/** Spec §5's recipient pattern for send-email: no spaces, one @, a dot in the domain. */
export const isValidRecipient = (email: string): boolean =>
  /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);

/** Spec §5's run-notification pattern: text, @, text, dot, text. */
export const isValidNotificationAddress = (email: string): boolean =>
  /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());

/** The links of the welcome e-mail (spec §2), relative to APP_URL. */
export const welcomeLinkPaths = [
  '/',
  '/chat',
  '/trends',
  '/prompts',
  '/scenarios-cookbook',
  '/help',
] as const;

/** The unsubscribe link of a mail: the address and the server's signature of it. */
export const unsubscribePath = (email: string, token: string) =>
  `/unsubscribe?email=${encodeURIComponent(email)}&token=${encodeURIComponent(token)}`;

/** `POST /functions/v1/send-email`, per signed-in user. */
export const sendEmailLimit: RateLimitWindow = { points: 10, windowSeconds: 60, blockSeconds: 60 };

/** `POST /functions/v1/contact`, per client address. */
export const contactFormLimit: RateLimitWindow = {
  points: 5,
  windowSeconds: 10 * 60,
  blockSeconds: 10 * 60,
};

/** `POST /rest/v1/unsubscribe`, per client address. */
export const unsubscribeLimit: RateLimitWindow = {
  points: 10,
  windowSeconds: 60,
  blockSeconds: 60,
};

export const contactFieldLimits = { name: 100, email: 254, message: 5000 } as const;
