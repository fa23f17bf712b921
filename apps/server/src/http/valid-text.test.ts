import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '@chorus/shared/api/conversations';
import { promptUsage } from '../db/schema/index.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { hasInvalidText, jsonProblem, MAX_JSON_DEPTH } from './valid-text.ts';

// Issue 13, point 3: a NUL in a text field was an unhandled 500 on about ten routes.

const NUL = 'bad\u0000text';
const LONE = 'half \uD800 a pair';

let t: TestApp;
let ann: Awaited<ReturnType<TestApp['user']>>;
let conversation: Conversation;

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
  ann = await t.user('nul-ann@example.com');
  await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-nul-test-0001' });
  conversation = (await ann.post<Conversation>('/rest/v1/conversations', {})).body;
});
afterAll(() => t.close());

describe('text that cannot be stored', () => {
  it('is found in strings, keys and nested values, and nowhere else', () => {
    expect(hasInvalidText({ a: [{ b: NUL }] })).toBe(true);
    expect(hasInvalidText({ [NUL]: 1 })).toBe(true);
    expect(hasInvalidText([LONE])).toBe(true);
    expect(hasInvalidText({ ok: 'emoji 😀 and ünïcode', n: 1, b: null })).toBe(false);
  });

  it('is a 400 with a code on every kind of route, for guests and users alike', async () => {
    const guest = t.client();
    const attempts = [
      await guest.post('/rest/v1/client-errors', { kind: 'other', message: NUL }),
      await guest.post('/rest/v1/access-requests', { email: 'nul@example.com', reason: NUL }),
      await guest.post('/auth/v1/sign-up/email', {
        email: 'nul-name@example.com',
        password: 'correct-horse-1',
        name: NUL,
      }),
      await guest.post('/functions/v1/contact', {
        name: 'N',
        email: 'n@example.com',
        message: LONE,
      }),
      await ann.get(`/rest/v1/conversations?search=${encodeURIComponent(NUL)}`),
      await ann.patch('/rest/v1/profile', { full_name: NUL }),
      await ann.patch(`/rest/v1/conversations/${conversation.id}`, { title: NUL }),
      await ann.post(`/rest/v1/conversations/${conversation.id}/messages`, {
        content: NUL,
        role: 'user',
      }),
      await ann.request('PUT', '/rest/v1/api-keys/anthropic', { api_key: `sk-ant-${NUL}` }),
      await ann.get(`/rest/v1/conversations/${encodeURIComponent(NUL)}/messages`),
    ];
    expect(attempts.map((r) => r.status)).toEqual(attempts.map(() => 400));
    for (const r of attempts) expect(r.body).toMatchObject({ code: 'request:invalid_text' });
  });

  it('in a chat message is refused before anything is charged or stored', async () => {
    const before = await t.db.select().from(promptUsage).where(eq(promptUsage.user_id, ann.id));
    const res = await ann.post('/functions/v1/chat', {
      conversation_id: conversation.id,
      provider: 'openai',
      text: NUL,
    });
    expect(res).toMatchObject({ status: 400, body: { code: 'request:invalid_text' } });
    const after = await t.db.select().from(promptUsage).where(eq(promptUsage.user_id, ann.id));
    expect(after).toEqual(before);
    const stored = await ann.get<{ messages: unknown[] }>(
      `/rest/v1/conversations/${conversation.id}/messages/latest`,
    );
    expect(stored.body.messages).toEqual([]);
  });
});

/** `levels` objects, one inside the other, around `inner`. */
const nested = (levels: number, inner: unknown = 1): unknown =>
  Array.from({ length: levels }).reduce<unknown>((value) => ({ a: value }), inner);

describe('JSON nested too deep', () => {
  it('is found past the limit, at any depth, and not before it', () => {
    expect(jsonProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonProblem(nested(MAX_JSON_DEPTH + 1))).toBe('too_deep');
    expect(jsonProblem([nested(MAX_JSON_DEPTH)])).toBe('too_deep');
    // Text the database cannot store, below where the text check looks, is refused all the same.
    expect(jsonProblem(nested(100, NUL))).toBe('too_deep');
  });

  it('is a 400 request:too_deep before any route reads it, not a stack overflow', async () => {
    // 20,000 levels once overflowed JSON.stringify inside a route: a 500.
    const deep = `{"name":"deep_tool","url_template":"https://example.com","input_schema":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
    const res = await ann.request('POST', '/rest/v1/tools', deep);
    expect(res).toMatchObject({ status: 400, body: { code: 'request:too_deep' } });
    expect((res.body as { error: string }).error).toBe(
      `The request nests its JSON more than ${MAX_JSON_DEPTH} levels deep. Send it with fewer levels.`,
    );
    const atLimit = await ann.post<{ code?: string }>('/rest/v1/tools', {
      name: 'deep_enough',
      url_template: 'https://example.com',
      input_schema: nested(MAX_JSON_DEPTH - 2, {}),
    });
    expect(atLimit.body.code).not.toBe('request:too_deep');
  });
});
