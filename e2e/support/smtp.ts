import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One received e-mail as stored in the mailbox folder. */
export type StoredMail = {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  date: string;
};

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((group) => group.value)
    .map((entry) => entry.address?.toLowerCase() ?? '')
    .filter(Boolean);

/** A real SMTP server on 127.0.0.1 that writes every mail it accepts as JSON into `dir`. */
export const startSmtpServer = async (port: number, dir: string): Promise<SMTPServer> => {
  mkdirSync(dir, { recursive: true });
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'e2e' }),
    onData: (stream, session, callback) => {
      simpleParser(stream)
        .then((parsed) => {
          const envelopeTo = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          const mail: StoredMail = {
            to: [...new Set([...addresses(parsed.to), ...envelopeTo])],
            from: addresses(parsed.from)[0] ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            date: (parsed.date ?? new Date()).toISOString(),
          };
          const name = `${Date.now()}-${randomUUID()}.json`;
          const partial = join(dir, `.${name}.partial`);
          writeFileSync(partial, JSON.stringify(mail, null, 2));
          renameSync(partial, join(dir, name));
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => console.error('[e2e smtp]', error));
  return server;
};

export const stopSmtpServer = (server: SMTPServer) =>
  new Promise<void>((resolve) => server.close(() => resolve()));
