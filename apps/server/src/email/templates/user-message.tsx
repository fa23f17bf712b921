import { Heading, Text } from '@react-email/components';
import { hiddenContentMarker } from '@chorus/shared/email';
import type { OutgoingEmail } from '../transport.ts';
import { EmailLayout, styles, type EmailIdentity } from './layout.tsx';
import { renderEmail } from './render.ts';

type UserMessageProps = { identity: EmailIdentity; sender: string; message: string };

/**
 * A message a signed-in person sent through `send-email`. It leaves from the system sender, so
 * their words go inside our template as text: no markup of theirs, and a link is shown as its
 * address, never as a button or a disguised anchor.
 */
export const UserMessageEmail = ({ identity, sender, message }: UserMessageProps) => (
  <EmailLayout preview={`A message from ${sender} sent through Chorus`} identity={identity}>
    <Heading style={styles.heading}>A message sent through Chorus</Heading>
    <Text style={styles.text}>From: {sender}</Text>
    <Text style={{ ...styles.quote, whiteSpace: 'pre-wrap' }}>{message}</Text>
  </EmailLayout>
);

export const userMessageEmail = async (opts: {
  identity: EmailIdentity;
  to: string[];
  subject: string;
  sender: string;
  message: string;
}): Promise<OutgoingEmail> => ({
  to: opts.to,
  subject: opts.subject,
  template: 'custom',
  // Their subject and words are theirs: the admin's copy shows who wrote, not what.
  withoutContent: {
    subject: hiddenContentMarker,
    ...(await renderEmail(
      <UserMessageEmail
        identity={opts.identity}
        sender={opts.sender}
        message={hiddenContentMarker}
      />,
    )),
  },
  ...(await renderEmail(
    <UserMessageEmail identity={opts.identity} sender={opts.sender} message={opts.message} />,
  )),
});
