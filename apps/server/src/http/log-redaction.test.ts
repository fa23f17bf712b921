import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';

// Issue 13, point 4: a failed query logged its parameters: the sealed provider key, chat text,
// names and search strings. Logs keep the error's kind, the SQL text and the request id only.

const CANARY_KEY = 'sk-canary-7f3a9c2e5b1d4f60';
const CANARY_TEXT = 'canary-search-4b8e1f';
/** A value sealed by the key box: `v1.<iv>.<tag>.<ciphertext>`. */
const sealed = /v1\.[\w-]{16}\.[\w-]{22}\./;

let t: TestApp;
let logged = '';
let ann: Awaited<ReturnType<TestApp['user']>>;

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
  ann = await t.user('canary-ann@example.com');
});
afterAll(() => t.close());

describe('a query that fails', () => {
  it('is logged with its SQL and request id, never its parameters', async () => {
    // Break the tables the two requests write and read, so their queries fail in the database.
    await t.db.execute(sql`alter table user_api_keys rename column key_hint to key_hint_gone`);
    await t.db.execute(sql`alter table conversations rename column title to title_gone`);
    try {
      const save = await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: CANARY_KEY });
      const search = await ann.get(`/rest/v1/conversations?search=${CANARY_TEXT}`);
      expect([save.status, search.status]).toEqual([500, 500]);
      const requestId = save.headers.get('x-request-id');

      const errors = logged
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === 'unhandled error');
      expect(errors).toHaveLength(2);
      expect(errors[0]).toMatchObject({ requestId, err: { message: 'Failed query' } });
      expect(JSON.stringify(errors[0])).toContain('insert into');
      for (const secret of [CANARY_KEY, CANARY_KEY.slice(-4) + '"', CANARY_TEXT]) {
        expect(logged).not.toContain(secret);
      }
      expect(logged).not.toMatch(sealed);
    } finally {
      await t.db.execute(sql`alter table user_api_keys rename column key_hint_gone to key_hint`);
      await t.db.execute(sql`alter table conversations rename column title_gone to title`);
    }
  });
});
