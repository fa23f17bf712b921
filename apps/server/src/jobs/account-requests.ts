import { emailHasAccount, submitAccessRequest } from '../db/repositories/access-requests.ts';
import type { Deps } from '../http/app-env.ts';
import { defineJob } from './queue.ts';

/**
 * Requests anyone may make with any address — a password reset, a request for access — whose
 * work differs by whether the address has an account (a reset token and a mail, or nothing; a
 * pending request, or nothing). Done while the client waits, that difference shows in the time
 * of the answer. So the answer only queues the request, the same one insert for every address,
 * and a worker does the rest (docs/SECURITY.md, "Accounts").
 */
export const PASSWORD_RESET_JOB = 'password-reset-request';
export const ACCESS_REQUEST_JOB = 'access-request';

export type PasswordResetJob = { email: string };
export type AccessRequestJob = { email: string; reason: string };

const requestPasswordReset = async (deps: Deps, { email }: PasswordResetJob) => {
  // better-auth looks the address up, makes the token and calls sendResetPassword (auth.ts).
  await deps.auth.api.requestPasswordReset({ body: { email } });
};

const recordAccessRequest = async (deps: Deps, request: AccessRequestJob) => {
  const db = deps.database.db;
  // Someone who has an account needs no invitation.
  if (await emailHasAccount(db, request.email)) return;
  const { created } = await submitAccessRequest(db, request);
  if (created) deps.log.info('access request received');
};

export const passwordResetJob = defineJob<Deps, PasswordResetJob>({
  name: PASSWORD_RESET_JOB,
  title: 'Password reset requests',
  retry: { limit: 3, delaySeconds: 10 },
  eager: true,
  run: (data, deps) => requestPasswordReset(deps, data),
});

export const accessRequestJob = defineJob<Deps, AccessRequestJob>({
  name: ACCESS_REQUEST_JOB,
  title: 'Access requests',
  retry: { limit: 3, delaySeconds: 10 },
  eager: true,
  run: (data, deps) => recordAccessRequest(deps, data),
});

/**
 * Queues the request, and returns once it is queued. Without a running job queue (tests that do
 * not start one, a server stopping) the same work runs beside the answer instead.
 */
const queue = async <T extends object>(
  deps: Deps,
  name: string,
  data: T,
  work: (deps: Deps, data: T) => Promise<void>,
): Promise<void> => {
  if (deps.jobs.running) {
    await deps.jobs.send(name, data);
    return;
  }
  deps.mailer.runInBackground(() => work(deps, data), { job: name });
};

export const queuePasswordReset = (deps: Deps, data: PasswordResetJob) =>
  queue(deps, PASSWORD_RESET_JOB, data, requestPasswordReset);

export const queueAccessRequest = (deps: Deps, data: AccessRequestJob) =>
  queue(deps, ACCESS_REQUEST_JOB, data, recordAccessRequest);
