import { Button, Heading, Section, Text } from '@react-email/components';
import { emailMessages, isValidNotificationAddress, unsubscribePath } from '@chorus/shared/email';
import type { OutgoingEmail } from '../transport.ts';
import { EmailLayout, styles, type EmailIdentity } from './layout.tsx';
import { renderEmail } from './render.ts';

export const runNotificationKinds = ['test_run', 'run_started', 'run_completed'] as const;
/** Scheduled runs' mails beyond the spec's three (issue 19): they carry a `reason`. */
export const runProblemKinds = ['run_failed', 'run_needs_approval', 'schedule_disabled'] as const;
export type RunProblemKind = (typeof runProblemKinds)[number];
export type RunNotificationKind = (typeof runNotificationKinds)[number];

export type RunNotification = {
  kind: RunNotificationKind | RunProblemKind;
  to: string;
  /** Why a run failed or stopped, or why its schedule was turned off. */
  reason?: string | undefined;
  runName?: string | undefined;
  responseText?: string | undefined;
  provider?: string | undefined;
  model?: string | undefined;
};

/** A run notification that cannot be written, with spec §5's message. */
export class RunNotificationError extends Error {
  override name = 'RunNotificationError';
}

const isProblem = (kind: RunNotification['kind']): kind is RunProblemKind =>
  (runProblemKinds as readonly string[]).includes(kind);

/** Spec §5: recipient and run name for test-run and started mails, response text for completed. */
export const checkRunNotification = (n: RunNotification): void => {
  const to = n.to?.trim() ?? '';
  if (!to || (n.kind !== 'run_completed' && !n.runName?.trim())) {
    throw new RunNotificationError(emailMessages.missingData);
  }
  if (!isValidNotificationAddress(to)) throw new RunNotificationError(emailMessages.invalidFormat);
  if (n.kind === 'run_completed' && !n.responseText?.trim()) {
    throw new RunNotificationError(emailMessages.noResponseText);
  }
  if (isProblem(n.kind) && !n.reason?.trim())
    throw new RunNotificationError(emailMessages.missingData);
};

const describe = (n: RunNotification) => {
  const name = n.runName?.trim() || 'Your run';
  switch (n.kind) {
    case 'test_run':
      return {
        subject: `Test run: ${name}`,
        heading: 'Test run notification',
        lead: `This is a test notification for “${name}”. Notifications for this run reach you here.`,
        path: '/test-runner',
      };
    case 'run_started':
      return {
        subject: `Run started: ${name}`,
        heading: 'Your run has started',
        lead: `“${name}” has started. We will write again when it completes.`,
        path: '/schedule-runs',
      };
    case 'run_completed':
      return {
        subject: `Run completed: ${name}`,
        heading: 'Your run has completed',
        lead: `“${name}” has completed. Here is the response:`,
        path: '/schedule-runs',
      };
    case 'run_failed':
      return {
        subject: `Run failed: ${name}`,
        heading: 'Your run has failed',
        lead: `“${name}” has failed. This is why:`,
        path: '/schedule-runs',
      };
    case 'run_needs_approval':
      return {
        subject: `Run stopped: ${name}`,
        heading: 'Your run needs a tool approval',
        lead: `“${name}” stopped: the agent asked to use a tool that needs approval, and scheduled runs never approve tools.`,
        path: '/schedule-runs',
      };
    case 'schedule_disabled':
      return {
        subject: `Schedule turned off: ${name}`,
        heading: 'Your schedule has been turned off',
        lead: `“${name}” will not run again until you resume it. This is why:`,
        path: '/schedule-runs',
      };
  }
};

type RunNotificationEmailProps = { identity: EmailIdentity; notification: RunNotification };

export const RunNotificationEmail = ({ identity, notification: n }: RunNotificationEmailProps) => {
  const d = describe(n);
  const via = [n.provider, n.model].filter(Boolean).join(' · ');
  return (
    <EmailLayout
      preview={d.subject}
      identity={identity}
      unsubscribeUrl={`${identity.appUrl}${unsubscribePath(n.to.trim(), identity.unsubscribeToken(n.to))}`}
    >
      <Heading style={styles.heading}>{d.heading}</Heading>
      <Text style={styles.text}>{d.lead}</Text>
      {via ? <Text style={styles.text}>Model: {via}</Text> : null}
      {n.kind === 'run_completed' ? <Text style={styles.quote}>{n.responseText}</Text> : null}
      {isProblem(n.kind) ? <Text style={styles.quote}>{n.reason}</Text> : null}
      <Section style={{ margin: '8px 0 0' }}>
        <Button href={`${identity.appUrl}${d.path}`} style={styles.button}>
          Open Chorus
        </Button>
      </Section>
    </EmailLayout>
  );
};

/** Validates (spec §5) and renders a run notification; it respects the recipient's opt-out. */
export const runNotificationEmail = async (opts: {
  identity: EmailIdentity;
  notification: RunNotification;
  subject?: string | undefined;
}): Promise<OutgoingEmail> => {
  checkRunNotification(opts.notification);
  return {
    to: [opts.notification.to.trim()],
    subject: opts.subject ?? describe(opts.notification).subject,
    template: opts.notification.kind,
    respectsUnsubscribe: true,
    secrets: [opts.identity.unsubscribeToken(opts.notification.to)],
    ...(await renderEmail(<RunNotificationEmail {...opts} />)),
  };
};
