import { Button, Heading, Section, Text } from '@react-email/components';
import {
  emailMessages,
  hiddenContentMarker,
  isValidNotificationAddress,
  unsubscribePath,
} from '@chorus/shared/email';
import type { OutgoingEmail } from '../transport.ts';
import { EmailLayout, styles, type EmailIdentity } from './layout.tsx';
import { renderEmail } from './render.ts';

export const runNotificationKinds = ['test_run', 'run_started', 'run_completed'] as const;
/** Scheduled runs' mails beyond the spec's three (issue 19): they carry a `reason`. */
export const runProblemKinds = ['run_failed', 'run_needs_approval', 'schedule_disabled'] as const;
export type RunProblemKind = (typeof runProblemKinds)[number];
export type RunNotificationKind = (typeof runNotificationKinds)[number];

/** A test run that ended (issue 20): what its `test_run` mail sums up, and its results page. */
export type TestRunMailSummary = {
  runId: string;
  status: 'done' | 'failed' | 'cancelled';
  /** Why a failed run stopped. */
  error: string | null;
  total: number;
  passed: number;
  failed: number;
  errors: number;
  passRate: number | null;
  /** Whether there was an earlier finished run of the set to compare with. */
  compared: boolean;
  regressions: number;
  improvements: number;
  costUsd: number | null;
  /** Each model's pass rate, in the run's order. */
  targets: { label: string; passRate: number | null }[];
};

export type RunNotification = {
  kind: RunNotificationKind | RunProblemKind;
  to: string;
  /** Why a run failed or stopped, or why its schedule was turned off. */
  reason?: string | undefined;
  runName?: string | undefined;
  responseText?: string | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  /** `test_run` only: the run's summary; without it the mail is the plain notification. */
  testRun?: TestRunMailSummary | undefined;
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

/** 0.875 → "88%"; "–" before any result. */
export const percent = (rate: number | null) =>
  rate === null ? '–' : `${Math.round(rate * 100)}%`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const describeTestRun = (name: string, t: TestRunMailSummary) => {
  const path = `/test-runner/runs/${encodeURIComponent(t.runId)}`;
  const tally = `${t.passed} of ${t.total} passed`;
  if (t.status === 'failed') {
    return {
      subject: `Test run failed: ${name}`,
      heading: 'Your test run has stopped',
      lead: `“${name}” stopped before it finished (${tally}). This is why:`,
      path,
    };
  }
  if (t.status === 'cancelled') {
    return {
      subject: `Test run cancelled: ${name}`,
      heading: 'Your test run was cancelled',
      lead: `“${name}” was cancelled (${tally}). The results so far are kept.`,
      path,
    };
  }
  const changes = t.regressions > 0 ? `, ${plural(t.regressions, 'regression')}` : '';
  return {
    subject: `Test run: ${name} — ${percent(t.passRate)} passed${changes}`,
    heading: 'Your test run has finished',
    lead: `“${name}” has finished: ${tally} (${percent(t.passRate)}).`,
    path,
  };
};

const testRunLines = (t: TestRunMailSummary): string[] => [
  `Passed: ${t.passed} · Failed: ${t.failed} · Errors: ${t.errors}`,
  t.compared
    ? `Against the previous run: ${plural(t.regressions, 'regression')}, ${plural(t.improvements, 'improvement')}`
    : 'No earlier finished run of this set to compare with.',
  `Cost: ${t.costUsd === null ? 'unknown' : `$${t.costUsd.toFixed(4)}`}`,
];

const describe = (n: RunNotification) => {
  const name = n.runName?.trim() || 'Your run';
  switch (n.kind) {
    case 'test_run':
      if (n.testRun) return describeTestRun(name, n.testRun);
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
  const t = n.kind === 'test_run' ? n.testRun : undefined;
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
      {t?.status === 'failed' && t.error ? <Text style={styles.quote}>{t.error}</Text> : null}
      {t
        ? testRunLines(t).map((line) => (
            <Text key={line} style={styles.text}>
              {line}
            </Text>
          ))
        : null}
      {t && t.targets.length > 0 ? (
        <Text style={styles.quote}>
          {t.targets.map((target) => `${target.label}: ${percent(target.passRate)}`).join('\n')}
        </Text>
      ) : null}
      <Section style={{ margin: '8px 0 0' }}>
        <Button href={`${identity.appUrl}${d.path}`} style={styles.button}>
          {t ? 'Open the results' : 'Open Chorus'}
        </Button>
      </Section>
    </EmailLayout>
  );
};

/** The user's own words in a notification (the run's name, its reply, why it failed), hidden. */
const withoutContent = (n: RunNotification): RunNotification => {
  const hide = (value: string | undefined) =>
    value === undefined || value.trim() === '' ? value : hiddenContentMarker;
  return {
    ...n,
    runName: hide(n.runName),
    responseText: hide(n.responseText),
    reason: hide(n.reason),
    ...(n.testRun && { testRun: { ...n.testRun, error: n.testRun.error && hiddenContentMarker } }),
  };
};

/** Validates (spec §5) and renders a run notification; it respects the recipient's opt-out. */
export const runNotificationEmail = async (opts: {
  identity: EmailIdentity;
  notification: RunNotification;
  /** A subject the sender wrote: their own words, hidden in the admin's copy. */
  subject?: string | undefined;
}): Promise<OutgoingEmail> => {
  checkRunNotification(opts.notification);
  const hidden = withoutContent(opts.notification);
  return {
    to: [opts.notification.to.trim()],
    subject: opts.subject ?? describe(opts.notification).subject,
    template: opts.notification.kind,
    respectsUnsubscribe: true,
    secrets: [opts.identity.unsubscribeToken(opts.notification.to)],
    withoutContent: {
      subject: opts.subject === undefined ? describe(hidden).subject : hiddenContentMarker,
      ...(await renderEmail(
        <RunNotificationEmail identity={opts.identity} notification={hidden} />,
      )),
    },
    ...(await renderEmail(<RunNotificationEmail {...opts} />)),
  };
};
