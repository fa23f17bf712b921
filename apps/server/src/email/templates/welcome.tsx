import { Button, Heading, Link, Section, Text } from '@react-email/components';
import { unsubscribePath } from '@chorus/shared/email';
import type { OutgoingEmail } from '../transport.ts';
import { EmailLayout, styles, type EmailIdentity } from './layout.tsx';
import { renderEmail } from './render.ts';

export const welcomeSubject = 'Welcome to Chorus';

type WelcomeEmailProps = { identity: EmailIdentity; to: string; userName: string };

/** Spec §2: links to /, /chat, /trends, /prompts, /scenarios-cookbook, /help and /unsubscribe. */
export const WelcomeEmail = ({ identity, to, userName }: WelcomeEmailProps) => {
  const url = (path: string) => `${identity.appUrl}${path}`;
  const name = userName.trim() || 'there';
  const places = [
    { path: '/chat', label: 'Chat', what: 'talk to models from several providers side by side' },
    { path: '/prompts', label: 'Prompt library', what: 'keep the prompts that work' },
    { path: '/trends', label: 'Trends', what: 'see what people are exploring' },
    {
      path: '/scenarios-cookbook',
      label: 'Scenarios cookbook',
      what: 'start from ready-made scenarios',
    },
    { path: '/help', label: 'Help center', what: 'answers to common questions' },
  ];
  return (
    <EmailLayout
      preview="Your Chorus workspace is ready"
      identity={identity}
      unsubscribeUrl={url(unsubscribePath(to, identity.unsubscribeToken(to)))}
    >
      <Heading style={styles.heading}>{`Welcome to Chorus, ${name}!`}</Heading>
      <Text style={styles.text}>
        Your account is ready. Chorus lets you chat with AI models from several providers in one
        workspace.
      </Text>
      <Section style={{ margin: '8px 0 20px' }}>
        <Button href={url('/chat')} style={styles.button}>
          Start chatting
        </Button>
      </Section>
      <Text style={styles.text}>A few places to begin:</Text>
      {places.map((place) => (
        <Text key={place.path} style={{ ...styles.text, margin: '0 0 6px' }}>
          <Link href={url(place.path)} style={styles.link}>
            {place.label}
          </Link>{' '}
          — {place.what}
        </Text>
      ))}
      <Text style={{ ...styles.text, marginTop: '16px' }}>
        Chorus lives at{' '}
        <Link href={url('/')} style={styles.link}>
          {url('/')}
        </Link>
        .
      </Text>
    </EmailLayout>
  );
};

export const welcomeEmail = async (opts: {
  identity: EmailIdentity;
  to: string;
  userName: string;
}): Promise<OutgoingEmail> => ({
  to: [opts.to],
  subject: welcomeSubject,
  template: 'welcome',
  respectsUnsubscribe: true,
  secrets: [opts.identity.unsubscribeToken(opts.to)],
  ...(await renderEmail(<WelcomeEmail {...opts} />)),
});
