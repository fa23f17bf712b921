import { Heading, Link, Text } from '@react-email/components';
import type { OutgoingEmail } from '../transport.ts';
import { EmailLayout, styles, type EmailIdentity } from './layout.tsx';
import { renderEmail } from './render.ts';

export const contactSubject = (name: string) => `Contact form: ${name}`;

type ContactEmailProps = { identity: EmailIdentity; name: string; email: string; message: string };

export const ContactEmail = ({ identity, name, email, message }: ContactEmailProps) => (
  <EmailLayout preview={`A message from ${name} via the Chorus help page`} identity={identity}>
    <Heading style={styles.heading}>New message from the contact form</Heading>
    <Text style={styles.text}>
      From: {name} (
      <Link href={`mailto:${email}`} style={styles.link}>
        {email}
      </Link>
      )
    </Text>
    <Text style={styles.quote}>{message}</Text>
    <Text style={styles.text}>Reply to this e-mail to answer {name} directly.</Text>
  </EmailLayout>
);

/** To the support address, with Reply-To set to the person who wrote. */
export const contactEmail = async (opts: {
  identity: EmailIdentity;
  name: string;
  email: string;
  message: string;
}): Promise<OutgoingEmail> => ({
  to: [opts.identity.supportEmail],
  replyTo: opts.email,
  subject: contactSubject(opts.name),
  template: 'contact',
  ...(await renderEmail(<ContactEmail {...opts} />)),
});
