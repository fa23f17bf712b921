import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemApiKeys } from '../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { resolveProviderKey } from '../../ai/keys.ts';
import { seedSystemKeys } from './seed-system-keys.ts';

const SEED = 'sk-seed-canary-7d1e2f3a4b5c6d7e';
const logLines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    env: {
      LOG_LEVEL: 'trace',
      SYSTEM_KEY_OPENAI: ` ${SEED} `,
      SYSTEM_KEY_MISTRAL: 'mistral-seed-0001',
    },
    logStream: new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  });
});
afterAll(() => t.close());

const seed = () =>
  seedSystemKeys({ db: t.db, box: t.deps.box, seeds: t.config.systemKeySeeds, log: t.deps.log });

describe('seedSystemKeys', () => {
  it('stores each SYSTEM_KEY_<PROVIDER> as a sealed, hinted system key', async () => {
    expect(await seed()).toEqual({ seeded: ['openai', 'mistral'], unchanged: [] });
    const rows = await t.db.select().from(systemApiKeys).orderBy(systemApiKeys.provider);
    expect(rows.map((r) => [r.provider, r.kind, r.key_hint])).toEqual([
      ['mistral', 'system', '…0001'],
      ['openai', 'system', 'sk-…6d7e'],
    ]);
    expect(rows[1]!.api_key).not.toContain('canary');

    const user = await t.user('seeded@example.com');
    expect(await resolveProviderKey(t.deps, { userId: user.id, provider: 'openai' })).toEqual({
      apiKey: SEED,
      source: 'system',
    });
  });

  it('leaves an unchanged key alone on the next start and logs provider names only', async () => {
    const before = await t.db.select().from(systemApiKeys).orderBy(systemApiKeys.provider);
    expect(await seed()).toEqual({ seeded: [], unchanged: ['openai', 'mistral'] });
    expect(await t.db.select().from(systemApiKeys).orderBy(systemApiKeys.provider)).toEqual(before);

    const logged = logLines.join('');
    expect(logged).toContain('system keys from the environment');
    expect(logged).not.toContain(SEED);
    expect(logged).not.toContain('mistral-seed-0001');
  });

  it('replaces a stored system key when the environment carries a new one', async () => {
    const rotated = await seedSystemKeys({
      db: t.db,
      box: t.deps.box,
      seeds: { openai: 'sk-seed-rotated-0002' },
      log: t.deps.log,
    });
    expect(rotated).toEqual({ seeded: ['openai'], unchanged: [] });
    const user = await t.user('seeded-rotated@example.com');
    expect(await resolveProviderKey(t.deps, { userId: user.id, provider: 'openai' })).toEqual({
      apiKey: 'sk-seed-rotated-0002',
      source: 'system',
    });
  });
});
