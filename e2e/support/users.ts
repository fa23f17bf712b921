import { randomBytes } from 'node:crypto';

export type TestUser = { name: string; email: string; password: string };

/** An e-mail address no other test (or earlier run) has used. */
export const uniqueEmail = (label = 'user') =>
  `e2e-${label}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}@chorus.test`;

export const newTestUser = (label = 'user'): TestUser => ({
  name: `E2E ${label}`,
  email: uniqueEmail(label),
  password: `Pw-${randomBytes(6).toString('hex')}-42`,
});
