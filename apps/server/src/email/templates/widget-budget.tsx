import { Button, Heading, Section, Text } from '@react-email/components';
import { hiddenContentMarker, unsubscribePath } from '@chorus/shared/email';
import type { OutgoingEmail } from '../transport.ts';
import { EmailLayout, styles, type EmailIdentity } from './layout.tsx';
import { renderEmail } from './render.ts';

export const widgetBudgetTemplate = 'widget_budget';

export type WidgetBudgetNotice = {
  to: string;
  widgetName: string;
  /** Which budget ran out: today's or this month's tokens. */
  budget: 'daily' | 'monthly';
  /** The budget's size in tokens. */
  tokens: number;
};

const describe = (n: WidgetBudgetNotice) => {
  const name = n.widgetName.trim() || 'Your widget';
  const which = n.budget === 'daily' ? 'daily' : 'monthly';
  return {
    subject: `Your widget “${name}” has used its ${which} budget`,
    lead: `“${name}” has used its ${which} budget of ${n.tokens.toLocaleString('en-US')} tokens. Until ${
      n.budget === 'daily' ? 'the day ends (UTC)' : 'the month ends (UTC)'
    }, visitors read that the assistant is unavailable, and no more of your quota is spent on it.`,
  };
};

type WidgetBudgetEmailProps = { identity: EmailIdentity; notice: WidgetBudgetNotice };

/** To a widget's owner, once per budget period (issue 21): which budget, and how to raise it. */
export const WidgetBudgetEmail = ({ identity, notice }: WidgetBudgetEmailProps) => {
  const d = describe(notice);
  return (
    <EmailLayout
      preview={d.subject}
      identity={identity}
      unsubscribeUrl={`${identity.appUrl}${unsubscribePath(notice.to.trim(), identity.unsubscribeToken(notice.to))}`}
    >
      <Heading style={styles.heading}>Your embedded chat is over its budget</Heading>
      <Text style={styles.text}>{d.lead}</Text>
      <Text style={styles.text}>
        To let visitors chat again sooner, raise the widget’s {notice.budget} token budget in
        Embedded chat. Its usage per day is shown there too.
      </Text>
      <Section style={{ margin: '8px 0 0' }}>
        <Button href={`${identity.appUrl}/agent-embed-chat`} style={styles.button}>
          Open Embedded chat
        </Button>
      </Section>
    </EmailLayout>
  );
};

/** Renders the owner's budget mail; it respects the owner's opt-out of notification mail. */
export const widgetBudgetEmail = async (opts: {
  identity: EmailIdentity;
  notice: WidgetBudgetNotice;
}): Promise<OutgoingEmail> => ({
  to: [opts.notice.to.trim()],
  subject: describe(opts.notice).subject,
  template: widgetBudgetTemplate,
  respectsUnsubscribe: true,
  secrets: [opts.identity.unsubscribeToken(opts.notice.to)],
  // The widget's name is the owner's own words.
  withoutContent: await (async () => {
    const notice = { ...opts.notice, widgetName: hiddenContentMarker };
    return {
      subject: describe(notice).subject,
      ...(await renderEmail(<WidgetBudgetEmail identity={opts.identity} notice={notice} />)),
    };
  })(),
  ...(await renderEmail(<WidgetBudgetEmail {...opts} />)),
});
