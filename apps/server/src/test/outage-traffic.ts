import { expect } from 'vitest';
import type { Conversation } from '@chorus/shared/api/conversations';
import type { TestApp } from './harness.ts';

// Signed-in traffic through a database outage (stopped or stalled), and what every answer must
// be: 503 database:unavailable with Retry-After, from the first second to the last.

export type OutageAnswer = {
  what: string;
  second: number;
  status: number;
  code: unknown;
  retryAfter: string | null;
};

/** A signed-in person with a key and a conversation, made while the database is up. */
export const outageVisitor = async (t: TestApp, email: string) => {
  const person = await t.user(email);
  await person.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-outage-traffic-01' });
  const conversation = (await person.post<Conversation>('/rest/v1/conversations', {})).body;
  return { person, conversation, guest: t.client() };
};

/**
 * Two rounds a second of lists, messages, a chat turn, the session read and a sign-in, from
 * `outage()` on for `ms`; `end()` brings the database back (also when a round throws).
 */
export const trafficThroughOutage = async (
  { person, conversation, guest }: Awaited<ReturnType<typeof outageVisitor>>,
  opts: { ms: number; outage: () => void | Promise<void>; end: () => void | Promise<void> },
): Promise<OutageAnswer[]> => {
  const round = () =>
    Promise.all([
      ['list', person.get('/rest/v1/conversations')],
      ['messages', person.get(`/rest/v1/conversations/${conversation.id}/messages`)],
      [
        'chat',
        person.post('/functions/v1/chat', {
          conversation_id: conversation.id,
          provider: 'openai',
          text: 'Hi',
        }),
      ],
      // The session read itself, which goes to better-auth once the cookie cache is not
      // trusted (5 s after the live-update feed dropped).
      ['get-session', person.get('/auth/v1/get-session')],
      ['sign-in', guest.signIn(person.email)],
    ] as const).then(async (pairs) =>
      Promise.all(pairs.map(async ([what, res]) => ({ what, res: await res }))),
    );
  const answers: OutageAnswer[] = [];
  await opts.outage();
  const started = Date.now();
  try {
    while (Date.now() - started < opts.ms) {
      const second = Math.floor((Date.now() - started) / 1000);
      for (const { what, res } of await round()) {
        answers.push({
          what,
          second,
          status: res.status,
          code: (res.body as { code?: unknown } | null)?.code,
          retryAfter: res.headers.get('retry-after'),
        });
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await opts.end();
  }
  return answers;
};

/**
 * Every answer was 503 database:unavailable with Retry-After 5, the last ones `lastSecond` in;
 * the one exception is the session read answered from its signed cookie cache, which needs no
 * database while it is trusted on its own (SESSION_UNANNOUNCED_TRUST_MS, 5 s; allowed twice that).
 */
export const expectOnlyUnavailable = (answers: OutageAnswer[], lastSecond: number) => {
  const fromCookieCache = (a: OutageAnswer) =>
    a.what === 'get-session' && a.status === 200 && a.second < 10;
  const unavailable = answers.filter((a) => !fromCookieCache(a));
  expect(unavailable.filter((a) => a.status !== 503 || a.code !== 'database:unavailable')).toEqual(
    [],
  );
  expect(new Set(unavailable.map((a) => a.retryAfter))).toEqual(new Set(['5']));
  expect(
    unavailable.filter((a) => a.what === 'get-session' && a.second >= lastSecond - 1),
  ).not.toEqual([]);
  expect(answers.at(-1)!.second).toBeGreaterThanOrEqual(lastSecond);
};
