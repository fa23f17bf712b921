import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { envelopeTo: string[]; mail: ParsedMail };

/**
 * A real SMTP server on 127.0.0.1 for integration tests: it keeps what it accepts, and
 * `rejectNext(n)` makes it refuse the next n messages with a temporary 451.
 */
export const startSmtpSink = async () => {
  const received: ReceivedMail[] = [];
  let rejections = 0;
  let rejectAlways = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (rejectAlways || rejections > 0) {
            rejections = Math.max(0, rejections - 1);
            const error = Object.assign(new Error('Mailbox busy, try again later'), {
              responseCode: 451,
            });
            callback(error);
            return;
          }
          received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Mails whose envelope includes `address`. */
    to: (address: string) =>
      received.filter((r) =>
        r.envelopeTo.map((a) => a.toLowerCase()).includes(address.toLowerCase()),
      ),
    rejectNext(count: number) {
      rejections = count;
    },
    rejectAll(on: boolean) {
      rejectAlways = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;

/** Polls until `check` returns something truthy, or fails after `timeoutMs`. */
export const eventually = async <T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 10_000,
): Promise<NonNullable<T>> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
