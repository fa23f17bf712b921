import {
  Body,
  Container,
  Head,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from '@react-email/components';
import type { CSSProperties, ReactNode } from 'react';

/** Who a mail is from and where people get help: MAIL_FROM, SUPPORT_EMAIL and APP_URL. */
export type EmailIdentity = {
  appUrl: string;
  mailFrom: string;
  supportEmail: string;
  /** The token of an address's unsubscribe link (email/unsubscribe-token.ts). */
  unsubscribeToken: (email: string) => string;
};

export const styles = {
  body: {
    backgroundColor: '#f6f7f9',
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    color: '#111827',
  },
  container: {
    backgroundColor: '#ffffff',
    border: '1px solid #e5e7eb',
    borderRadius: '8px',
    margin: '24px auto',
    maxWidth: '560px',
    padding: '24px 32px',
  },
  heading: { fontSize: '20px', fontWeight: 600, margin: '0 0 16px' },
  text: { fontSize: '15px', lineHeight: '24px', margin: '0 0 12px' },
  button: {
    backgroundColor: '#111827',
    borderRadius: '6px',
    color: '#ffffff',
    display: 'inline-block',
    fontSize: '15px',
    padding: '10px 16px',
    textDecoration: 'none',
  },
  link: { color: '#2563eb' },
  quote: {
    backgroundColor: '#f3f4f6',
    borderRadius: '6px',
    fontSize: '14px',
    lineHeight: '22px',
    margin: '0 0 12px',
    padding: '12px 16px',
    whiteSpace: 'pre-wrap',
  },
  footer: { color: '#6b7280', fontSize: '12px', lineHeight: '18px', margin: '0' },
} satisfies Record<string, CSSProperties>;

/** The sender's display name, or the address itself when MAIL_FROM has no name. */
export const senderName = (mailFrom: string) =>
  /^\s*"?([^"<]+?)"?\s*</.exec(mailFrom)?.[1] ?? mailFrom;

type EmailLayoutProps = {
  preview: string;
  identity: EmailIdentity;
  /** Shown for mail people can opt out of (welcome, notifications); never for password resets. */
  unsubscribeUrl?: string | undefined;
  children: ReactNode;
};

/** Every Chorus mail: the same frame, and a footer with the current year and who sent it. */
export const EmailLayout = ({ preview, identity, unsubscribeUrl, children }: EmailLayoutProps) => {
  const year = new Date().getFullYear();
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          {children}
          <Hr style={{ borderColor: '#e5e7eb', margin: '24px 0 16px' }} />
          <Section>
            <Text style={styles.footer}>
              {`© ${year} Chorus · Sent by ${senderName(identity.mailFrom)} · Questions? `}
              <Link href={`mailto:${identity.supportEmail}`} style={styles.link}>
                {identity.supportEmail}
              </Link>
            </Text>
            {unsubscribeUrl ? (
              <Text style={styles.footer}>
                Don’t want these e-mails?{' '}
                <Link href={unsubscribeUrl} style={styles.link}>
                  Unsubscribe
                </Link>
              </Text>
            ) : null}
          </Section>
        </Container>
      </Body>
    </Html>
  );
};
