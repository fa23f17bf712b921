import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessTokenPrefix,
  testRunLimits,
  type AccessToken,
  type CreatedAccessToken,
  type TestSet,
  type TestSetList,
} from '@chorus/shared/api/test-runs';
import { messageFor } from '@chorus/shared/error-catalogue';
import { accessTokens, profiles } from '../../../db/schema/index.ts';
import { accessChanged } from '../../../http/session.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };

let t: TestApp;
let ann: Client;
let bob: Client;
let annSet: TestSet;
/** Every log line of the app, at debug level. */
let logged = '';
/** Every token made, to look for in the logs. */
const madeTokens: string[] = [];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const newToken = async (who: Client, body: Record<string, unknown> = {}) => {
  const res = await who.post<CreatedAccessToken>('/rest/v1/access-tokens', {
    name: 'CI',
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  madeTokens.push(res.body.token);
  return res.body;
};

/** A request as a CI job sends it: the token, no cookies, no Origin. */
const withToken = async <T = unknown>(
  token: string,
  method: string,
  url: string,
  body?: unknown,
) => {
  const res = await t.app.request(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'x-forwarded-for': '203.0.113.9',
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
};

const invalid = { error: messageFor('access_tokens:invalid'), code: 'access_tokens:invalid' };

beforeAll(async () => {
  t = await startTestApp({
    env: { LOG_LEVEL: 'debug' },
    logStream: new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk);
        done();
      },
    }),
  });
  ann = await t.user('tokens-ann@example.com');
  bob = await t.user('tokens-bob@example.com');
  const prompt = await ann.post<{ id: string }>('/rest/v1/prompts', {
    title: 'Greeting',
    content: 'Say hi to {{name}}',
  });
  annSet = (
    await ann.post<TestSet>('/rest/v1/test-sets', {
      name: 'CI set',
      subject: { kind: 'prompt', id: prompt.body.id },
    })
  ).body;
});
afterAll(() => t.close());

describe('personal access tokens', () => {
  it('shows the token once, and stores only its hash', async () => {
    const before = Date.now();
    const made = await newToken(ann, { name: '  GitHub Actions  ', expires_in_days: 30 });
    expect(made.token).toMatch(new RegExp(`^${accessTokenPrefix}[A-Za-z0-9_-]{43}$`));
    expect(made).toMatchObject({
      name: 'GitHub Actions',
      hint: `${made.token.slice(0, 15)}…`,
      scopes: ['test_runs'],
      last_used_at: null,
    });
    const expires = Date.parse(made.expires_at!);
    expect(expires - before).toBeGreaterThanOrEqual(30 * 86_400_000 - 5_000);
    expect(expires - before).toBeLessThanOrEqual(30 * 86_400_000 + 60_000);

    const list = await ann.get<{ items: AccessToken[] }>('/rest/v1/access-tokens');
    expect(list.status).toBe(200);
    const listed = list.body.items.find((x) => x.id === made.id)!;
    const { token: _token, ...shown } = made;
    expect(listed).toEqual(shown);
    expect(JSON.stringify(list.body)).not.toContain(made.token);

    const [row] = await t.db.select().from(accessTokens).where(eq(accessTokens.id, made.id));
    expect(row!.token_hash).toBe(sha256(made.token));
    expect(JSON.stringify(row)).not.toContain(made.token);

    const forever = await newToken(ann, { expires_in_days: null });
    expect(forever.expires_at).toBeNull();
    const defaulted = await newToken(ann);
    expect(Date.parse(defaulted.expires_at!) - Date.now()).toBeGreaterThan(89 * 86_400_000);
    expect(
      (await ann.post<Refusal>('/rest/v1/access-tokens', { name: 'x', expires_in_days: 3 })).status,
    ).toBe(400);
    const nul = await ann.post<Refusal>('/rest/v1/access-tokens', { name: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect(nul.body.code).toBe('request:invalid_text');
  });

  it('lists test sets with a token and no cookie or Origin, and notes when it was used', async () => {
    const made = await newToken(ann, { name: 'Lister' });
    const res = await withToken<TestSetList>(made.token, 'GET', '/rest/v1/test-sets');
    expect(res.status).toBe(200);
    expect(res.body.items.map((s) => s.id)).toEqual([annSet.id]);

    const [row] = await t.db.select().from(accessTokens).where(eq(accessTokens.id, made.id));
    expect(row!.last_used_at).not.toBeNull();
    // Used again at once: the note is not rewritten within the minute.
    await withToken(made.token, 'GET', '/rest/v1/test-sets');
    const [again] = await t.db.select().from(accessTokens).where(eq(accessTokens.id, made.id));
    expect(again!.last_used_at).toEqual(row!.last_used_at);
    const listed = (await ann.get<{ items: AccessToken[] }>('/rest/v1/access-tokens')).body.items;
    expect(listed.find((x) => x.id === made.id)!.last_used_at).toBe(
      row!.last_used_at!.toISOString(),
    );
  });

  it('refuses garbage, revoked and expired tokens', async () => {
    for (const header of [
      'chorus_pat_nope',
      `${accessTokenPrefix}${'A'.repeat(43)}`,
      'Bearer',
      'something-else',
    ]) {
      const res = await withToken<Refusal>(header, 'GET', '/rest/v1/test-sets');
      expect(res.status, header).toBe(401);
      expect(res.body).toEqual(invalid);
    }
    // Another scheme is not a token: the session decides (a proxy's Basic auth, say).
    const basic = await t.app.request('/rest/v1/test-sets', {
      headers: { authorization: 'Basic YTpi' },
    });
    expect(basic.status).toBe(401);
    expect(((await basic.json()) as Refusal).code).toBe('auth:required');
    const behindProxy = await ann.request<TestSetList>('GET', '/rest/v1/test-sets', undefined, {
      authorization: 'Basic YTpi',
    });
    expect(behindProxy.status).toBe(200);

    const revoked = await newToken(ann, { name: 'Revoked' });
    expect((await ann.del(`/rest/v1/access-tokens/${revoked.id}`)).status).toBe(204);
    expect(await withToken(revoked.token, 'GET', '/rest/v1/test-sets')).toEqual({
      status: 401,
      body: invalid,
    });
    const listed = (await ann.get<{ items: AccessToken[] }>('/rest/v1/access-tokens')).body.items;
    expect(listed.map((x) => x.id)).not.toContain(revoked.id);
    expect((await ann.del<Refusal>(`/rest/v1/access-tokens/${revoked.id}`)).status).toBe(404);

    const expired = await newToken(ann, { name: 'Expired', expires_in_days: 7 });
    await t.db
      .update(accessTokens)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(accessTokens.id, expired.id));
    expect(await withToken(expired.token, 'GET', '/rest/v1/test-sets')).toEqual({
      status: 401,
      body: invalid,
    });

    const unscoped = await newToken(ann, { name: 'No scope' });
    await t.db.update(accessTokens).set({ scopes: [] }).where(eq(accessTokens.id, unscoped.id));
    expect((await withToken(unscoped.token, 'GET', '/rest/v1/test-sets')).status).toBe(401);
  });

  it('stops working while its owner is suspended', async () => {
    const who = await t.user('tokens-suspended@example.com');
    const made = await newToken(who);
    expect((await withToken(made.token, 'GET', '/rest/v1/test-sets')).status).toBe(200);
    await t.db.update(profiles).set({ suspended_at: new Date() }).where(eq(profiles.id, who.id));
    await accessChanged(t.deps, who.id);
    expect(await withToken(made.token, 'GET', '/rest/v1/test-sets')).toEqual({
      status: 401,
      body: invalid,
    });
    await t.db.update(profiles).set({ suspended_at: null }).where(eq(profiles.id, who.id));
    await accessChanged(t.deps, who.id);
    expect((await withToken(made.token, 'GET', '/rest/v1/test-sets')).status).toBe(200);
  });

  it('opens nothing else: every cookie-only route refuses it, token routes included', async () => {
    const made = await newToken(ann, { name: 'Narrow' });
    const refusals: [string, string, unknown?][] = [
      ['GET', `/rest/v1/test-sets/${annSet.id}`],
      ['GET', `/rest/v1/test-sets/${annSet.id}/cases`],
      // A POST without Origin passes the origin check (no session cookie) and meets the scope.
      ['POST', '/rest/v1/test-sets', { name: 'x', subject: annSet.subject }],
      ['DELETE', `/rest/v1/test-sets/${annSet.id}`],
      ['GET', '/rest/v1/access-tokens'],
      ['POST', '/rest/v1/access-tokens', { name: 'Another' }],
      ['DELETE', `/rest/v1/access-tokens/${made.id}`],
      ['GET', '/rest/v1/prompts'],
      ['GET', '/rest/v1/admin/users'],
    ];
    for (const [method, url, body] of refusals) {
      const res = await withToken<Refusal>(made.token, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body).toEqual({
        error: messageFor('access_tokens:wrong_scope'),
        code: 'access_tokens:wrong_scope',
      });
    }
    expect((await ann.get(`/rest/v1/test-sets/${annSet.id}`)).status).toBe(200);
    const live = (await ann.get<{ items: AccessToken[] }>('/rest/v1/access-tokens')).body.items;
    expect(live.map((x) => x.id)).toContain(made.id);
  });

  it('holds at most tokensPerUser live tokens; a revoked one frees its place', async () => {
    const who = await t.user('tokens-many@example.com');
    const made: CreatedAccessToken[] = [];
    for (let i = 0; i < testRunLimits.tokensPerUser; i += 1) made.push(await newToken(who));
    const over = await who.post<Refusal>('/rest/v1/access-tokens', { name: 'One more' });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('access_tokens:too_many');
    expect((await who.del(`/rest/v1/access-tokens/${made[0]!.id}`)).status).toBe(204);
    await newToken(who);
  });
});

describe('a second user', () => {
  it('cannot see, use or revoke the first user’s tokens', async () => {
    const made = await newToken(ann, { name: 'Ann’s' });
    const bobList = await bob.get<{ items: AccessToken[] }>('/rest/v1/access-tokens');
    expect(bobList.body.items).toEqual([]);
    const revoke = await bob.del<Refusal>(`/rest/v1/access-tokens/${made.id}`);
    expect(revoke.status).toBe(404);
    expect(revoke.body.code).toBe('access_tokens:not_found');
    expect((await bob.del<Refusal>('/rest/v1/access-tokens/not-a-uuid')).status).toBe(404);
    // Still Ann's and still working: it lists Ann's sets, never Bob's.
    const sets = await withToken<TestSetList>(made.token, 'GET', '/rest/v1/test-sets');
    expect(sets.body.items.map((s) => s.id)).toEqual([annSet.id]);

    const bobToken = await newToken(bob);
    const bobSets = await withToken<TestSetList>(bobToken.token, 'GET', '/rest/v1/test-sets');
    expect(bobSets.body.items).toEqual([]);
    const viaBob = await withToken<Refusal>(
      bobToken.token,
      'GET',
      `/rest/v1/test-sets/${annSet.id}`,
    );
    expect(viaBob.status).toBe(401);
  });

  it('asks a guest to sign in', async () => {
    const guest = t.client();
    expect((await guest.get('/rest/v1/access-tokens')).status).toBe(401);
    expect((await guest.post('/rest/v1/access-tokens', { name: 'x' })).status).toBe(401);
  });
});

describe('the API document', () => {
  it('describes the token scheme and where it is accepted', async () => {
    type Doc = {
      components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    };
    const doc = (await t.client().get<Doc>('/rest/v1/openapi.json')).body;
    expect(doc.components.securitySchemes.accessToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(doc.paths['/rest/v1/test-sets']!.get!.security).toEqual([
      { sessionCookie: [] },
      { accessToken: [] },
    ]);
    expect(doc.paths['/rest/v1/access-tokens']!.post!.security).toEqual([{ sessionCookie: [] }]);
  });
});

describe('the logs', () => {
  it('never hold a token', () => {
    expect(madeTokens.length).toBeGreaterThan(20);
    expect(logged).toContain('/rest/v1/test-sets');
    for (const token of madeTokens)
      expect(logged).not.toContain(token.slice(accessTokenPrefix.length));
  });
});
