import { Button, Heading, Link, Section, Text } from '@react-email/components';
import type { OutgoingEmail } from '../transport.ts';
import { EmailLayout, styles, type EmailIdentity } from './layout.tsx';
import { renderEmail } from './render.ts';

export const passwordResetSubject = 'Reset your Chorus password';

type PasswordResetEmailProps = { identity: EmailIdentity; userName: string; resetLink: string };

export const PasswordResetEmail = ({ identity, userName, resetLink }: PasswordResetEmailProps) => (
  <EmailLayout preview="Choose a new password for your Chorus account" identity={identity}>
    <Heading style={styles.heading}>Reset your password</Heading>
    <Text style={styles.text}>{`Hi ${userName.trim() || 'there'},`}</Text>
    <Text style={styles.text}>
      We received a request to reset the password of your Chorus account.
    </Text>
    <Section style={{ margin: '8px 0 20px' }}>
      <Button href={resetLink} style={styles.button}>
        Choose a new password
      </Button>
    </Section>
    <Text style={styles.text}>
      Or paste this link into your browser (valid for one hour):{' '}
      <Link href={resetLink} style={styles.link}>
        {resetLink}
      </Link>
    </Text>
    <Text style={styles.text}>
      If you did not ask for this, you can ignore this e-mail; your password stays the same.
    </Text>
  </EmailLayout>
);

/** Always sent, whatever the address's unsubscribe choice: it is the way back into an account. */
export const passwordResetEmail = async (opts: {
  identity: EmailIdentity;
  to: string;
  userName: string;
  resetLink: string;
  subject?: string | undefined;
}): Promise<OutgoingEmail> => ({
  to: [opts.to],
  subject: opts.subject ?? passwordResetSubject,
  template: 'password_reset',
  ...(await renderEmail(
    <PasswordResetEmail
      identity={opts.identity}
      userName={opts.userName}
      resetLink={opts.resetLink}
    />,
  )),
});
