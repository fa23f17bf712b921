import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { httpTools } from '../schema/index.ts';
import {
  HttpToolNameTakenError,
  HttpToolSecretMissingError,
  HttpToolsRepository,
  type HttpToolFields,
} from './http-tools.ts';

let t: TestApp;
let ann: HttpToolsRepository;
let bob: HttpToolsRepository;

beforeAll(async () => {
  t = await startTestApp();
  const a = await t.user('httptools-a@example.com');
  const b = await t.user('httptools-b@example.com');
  ann = new HttpToolsRepository(t.db, a.id, t.deps.box);
  bob = new HttpToolsRepository(t.db, b.id, t.deps.box);
});
afterAll(() => t.close());

const fields = (name: string, secret = 'token-value-1234'): HttpToolFields => ({
  name,
  description: '',
  method: 'GET',
  url_template: 'https://api.example.com/{q}',
  headers: [
    { name: 'X-Plain', value: 'plain', secret: false },
    { name: 'X-Key', value: secret, secret: true },
  ],
  input_schema: { type: 'object', properties: { q: { type: 'string' } } },
});

const rowOf = async (id: string) =>
  (await t.db.select().from(httpTools).where(eq(httpTools.id, id)))[0];

describe('HttpToolsRepository', () => {
  it("cannot read, list, change or delete another user's tool", async () => {
    const mine = await ann.create(fields('isolated'));
    expect(await bob.get(mine.id)).toBeNull();
    expect(await bob.getMany([mine.id])).toEqual([]);
    expect((await bob.list()).map((r) => r.id)).not.toContain(mine.id);
    expect(await bob.update(mine.id, { name: 'taken_over' })).toBeNull();
    expect(
      await bob.update(mine.id, { headers: [{ name: 'X-Key', value: null, secret: true }] }),
    ).toBeNull();
    expect(await bob.remove(mine.id)).toBe(false);
    expect(await rowOf(mine.id)).toEqual(mine);
    expect(await bob.count()).toBe(0);
  });

  it('seals secret header values, keeps a hint, and opens them for the request only', async () => {
    const row = await ann.create(fields('sealed', 'abcdefgh-SECRET-9876'));
    expect(JSON.stringify(row)).not.toContain('SECRET');
    expect(row.headers).toEqual([{ name: 'X-Plain', value: 'plain' }]);
    expect(row.secret_hints).toEqual([{ name: 'X-Key', hint: '…9876' }]);
    expect(ann.secretHeaders(row)).toEqual([{ name: 'X-Key', value: 'abcdefgh-SECRET-9876' }]);
  });

  it('keeps a secret sent back as null by name, and refuses a new one without a value', async () => {
    const row = await ann.create(fields('kept', 'first-secret-value'));
    const kept = await ann.update(row.id, {
      headers: [{ name: 'x-key', value: null, secret: true }],
    });
    expect(ann.secretHeaders(kept!)).toEqual([{ name: 'x-key', value: 'first-secret-value' }]);
    await expect(
      ann.update(row.id, { headers: [{ name: 'X-Other', value: null, secret: true }] }),
    ).rejects.toBeInstanceOf(HttpToolSecretMissingError);
    await expect(
      ann.create({ ...fields('nothing'), headers: [{ name: 'X', value: null, secret: true }] }),
    ).rejects.toBeInstanceOf(HttpToolSecretMissingError);
  });

  it('keeps names unique per user, not across users', async () => {
    await ann.create(fields('same_name'));
    await expect(ann.create(fields('same_name'))).rejects.toBeInstanceOf(HttpToolNameTakenError);
    const bobs = await bob.create(fields('same_name'));
    expect(bobs.name).toBe('same_name');
  });

  it('reads many by id, leaving out ids that are not ids', async () => {
    const one = await ann.create(fields('many_one'));
    const two = await ann.create(fields('many_two'));
    const rows = await ann.getMany([two.id, one.id, 'not-an-id', one.id]);
    expect(rows.map((r) => r.name)).toEqual(['many_one', 'many_two']);
  });
});
