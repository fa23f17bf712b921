import type { SendEmailRequest, SendEmailResponse } from '@chorus/shared/api/email';
import { emailMessages, isValidRecipient } from '@chorus/shared/email';
import { api } from './api-client';
import { isApiError } from './api-error';

/** A send that failed, with the spec §8 message to show. */
export class EmailSendError extends Error {
  override name = 'EmailSendError';
}

const recipients = (to: SendEmailRequest['to']) =>
  (Array.isArray(to) ? to : to ? [to] : []).map((a) => a.trim()).filter(Boolean);

/**
 * Checks a request before it leaves the browser: 'Cannot send email - missing required
 * information' or 'Cannot send email - invalid email address', else null.
 */
export const emailRequestProblem = (request: SendEmailRequest): string | null => {
  const to = recipients(request.to);
  const hasBody = request.type ? true : Boolean(request.html?.trim());
  if (to.length === 0 || !request.subject?.trim() || !hasBody) {
    return emailMessages.missingInformation;
  }
  return to.every(isValidRecipient) ? null : emailMessages.invalidAddress;
};

/** The message for a failed call: the server's own words, when it answered at all. */
export const emailServiceErrorMessage = (error: unknown): string =>
  isApiError(error) && error.status > 0 && error.message
    ? emailMessages.serviceError(error.message)
    : emailMessages.unknownFunctionError;

/** Calls `POST /functions/v1/send-email`; throws an EmailSendError with the spec's wording. */
export const sendEmail = async (request: SendEmailRequest): Promise<SendEmailResponse> => {
  const problem = emailRequestProblem(request);
  if (problem) throw new EmailSendError(problem);
  try {
    return await api.post<SendEmailResponse>('/functions/v1/send-email', request);
  } catch (error) {
    throw new EmailSendError(emailServiceErrorMessage(error));
  }
};

export type NotificationOutcome = { ok: boolean; message: string };

/**
 * Sends the test-run notification to the signed-in user's own address and answers with the
 * toast to show: 'Test run notification sent successfully' or
 * 'Failed to send test run notification: {reason}'.
 */
export const sendTestRunNotification = async (input: {
  to: string;
  runName: string;
}): Promise<NotificationOutcome> => {
  try {
    await sendEmail({
      to: input.to,
      subject: `Test run: ${input.runName}`,
      type: 'test_run',
      runName: input.runName,
    });
    return { ok: true, message: emailMessages.testRunNotificationSent };
  } catch (error) {
    const reason = error instanceof Error ? error.message : emailMessages.unknownFunctionError;
    return { ok: false, message: emailMessages.testRunNotificationFailed(reason) };
  }
};
