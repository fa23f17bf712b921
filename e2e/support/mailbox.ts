import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mailDir } from './paths.ts';
import type { StoredMail } from './smtp.ts';

export type MailQuery = { to: string; subjectIncludes?: string };

const readMailbox = (): StoredMail[] => {
  let names: string[];
  try {
    names = readdirSync(mailDir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(mailDir, name), 'utf8')) as StoredMail);
};

const matches = (mail: StoredMail, query: MailQuery) =>
  mail.to.includes(query.to.toLowerCase()) &&
  (!query.subjectIncludes || mail.subject.includes(query.subjectIncludes));

/** Polls the test SMTP server's mailbox folder until a matching mail arrives. */
export const waitForMail = async (query: MailQuery, timeoutMs = 15_000): Promise<StoredMail> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = readMailbox().find((m) => matches(m, query));
    if (mail) return mail;
    if (Date.now() > deadline) {
      const seen = readMailbox().map((m) => `${m.to.join(',')}: ${m.subject}`);
      throw new Error(
        `No mail to ${query.to}${query.subjectIncludes ? ` with subject containing "${query.subjectIncludes}"` : ''} within ${timeoutMs} ms. Mailbox: ${seen.length ? seen.join(' | ') : '(empty)'}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/** Every distinct link in a mail (text, then HTML) whose URL starts with `prefix`. */
export const findLinks = (mail: StoredMail, prefix: string): string[] => {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`${escaped}[^\\s"'<>)\\]]*`, 'g');
  const html = mail.html.replaceAll('&amp;', '&');
  return [...new Set([...(mail.text.match(pattern) ?? []), ...(html.match(pattern) ?? [])])];
};

/** Every mail in the mailbox that matches, oldest first (for counting mails that repeat). */
export const findMails = (query: MailQuery): StoredMail[] =>
  readMailbox().filter((mail) => matches(mail, query));
