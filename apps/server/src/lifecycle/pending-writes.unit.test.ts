import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../db/database-errors.ts';
import { createLogger } from '../logger.ts';
import { createPendingWrites } from './pending-writes.ts';

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('pending writes', () => {
  it('retries a write while the database is unreachable, until it lands', async () => {
    const saves = createPendingWrites(createLogger('silent'));
    let tries = 0;
    const saved = saves.run('reply', async () => {
      tries += 1;
      if (tries < 3) throw tries === 1 ? refused() : new DatabaseUnavailableError('busy');
    });
    expect(saves.size).toBe(1);
    expect(await saved).toBe(true);
    expect(tries).toBe(3);
    expect(saves.size).toBe(0);
  });

  it('does not retry a write the database refused for another reason', async () => {
    const saves = createPendingWrites(createLogger('silent'));
    let tries = 0;
    const saved = saves.run('reply', async () => {
      tries += 1;
      throw Object.assign(new Error('null value in column "content"'), { code: '23502' });
    });
    expect(await saved).toBe(false);
    expect(tries).toBe(1);
  });

  it('gives up at once on every pending write when told to, even one hanging on a dead link', async () => {
    const saves = createPendingWrites(createLogger('silent'));
    const retrying = saves.run('usage', () => Promise.reject(refused()));
    const hanging = saves.run('reply', () => new Promise(() => undefined));
    expect(await saves.drain(50)).toBe(false);
    saves.giveUp();
    expect(await Promise.all([retrying, hanging])).toEqual([false, false]);
    expect(await saves.drain(0)).toBe(true);
  });
});
