import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderSim } from '@chorus/provider-sim';
import { createPostgresDatabaseUrl, testDriver } from '../test/database.ts';
import {
  freePort,
  httpUser,
  readUntil,
  spawnServerProcess,
  startServerProcess,
  type ServerProcess,
} from '../test/server-process.ts';
import { partsOf, textOf } from '../test/streams.ts';
import { seedPgliteDataDir } from '../test/template.ts';
import { LOCK_FILE } from './data-dir-lock.ts';

// A second server process started by mistake beside a running one: on the same embedded data
// directory it is refused before it reads or writes anything there (data-dir-lock.ts), and on the
// same port it stops before it opens any database. Either way the first one's live replies and
// data are untouched.

let sim: Awaited<ReturnType<typeof startProviderSim>>;
let pgDb: Awaited<ReturnType<typeof createPostgresDatabaseUrl>> | undefined;
let dataDir: string;
let first: ServerProcess;
const spares: string[] = [];

beforeAll(async () => {
  sim = await startProviderSim({ port: 0 });
  dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-owner-'));
  if (testDriver() === 'postgres') pgDb = await createPostgresDatabaseUrl();
  else await seedPgliteDataDir(dataDir);
  first = await startServerProcess({ dataDir, simBaseUrls: sim.baseUrls, databaseUrl: pgDb?.url });
}, 90_000);

afterAll(async () => {
  await first?.kill('SIGKILL');
  await sim?.close();
  await pgDb?.drop();
  for (const dir of [dataDir, ...spares]) rmSync(dir, { recursive: true, force: true });
});

/** Two long replies streaming on the first process; `finish` reads them to the end. */
const liveReplies = async (email: string) => {
  const ann = await httpUser(first.base, email);
  const conversations = [await ann.conversation(), await ann.conversation()];
  const streams = await Promise.all(
    conversations.map(async (id) =>
      readUntil(await ann.chat(id, 'At length [sim:tokens 40] [sim:delay-ms 100]'), (sse) =>
        sse.includes('text-delta'),
      ),
    ),
  );
  return {
    async finish() {
      const seen = await Promise.all(streams.map(async (s) => partsOf(await s.rest())));
      for (const parts of seen) {
        expect(parts.some((p) => p.type === 'error')).toBe(false);
        expect(parts.at(-1)?.type).toBe('finish');
        expect(textOf(parts).split(' ')).toHaveLength(40);
      }
      for (const id of conversations) {
        const replies = (await ann.messages(id)).filter((m) => m.role === 'assistant');
        expect(replies.map((m) => m.status)).toEqual(['complete']);
      }
    },
  };
};

const serverInstances = async () => {
  if (!pgDb) return null;
  const client = new pg.Client({ connectionString: pgDb.url });
  await client.connect();
  try {
    return (await client.query<{ id: string }>('select id from server_instances order by id')).rows;
  } finally {
    await client.end();
  }
};

describe.skipIf(testDriver() === 'postgres')('one owner per embedded data directory', () => {
  it('refuses a second process on the same DATA_DIR at once, and the first goes on untouched', async () => {
    const replies = await liveReplies('owner-ann@example.com');
    const lockBefore = readFileSync(path.join(dataDir, LOCK_FILE), 'utf8');
    expect(JSON.parse(lockBefore)).toMatchObject({ pid: first.child.pid });

    const second = spawnServerProcess({
      dataDir,
      port: await freePort(),
      simBaseUrls: sim.baseUrls,
    });
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(
      `Chorus cannot start. DATA_DIR ${dataDir} is in use by another Chorus process (PID ${first.child.pid}`,
    );
    // It never served, and it left the owner's lock as it was.
    await expect(fetch(`${second.base}/livez`)).rejects.toThrow();
    expect(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')).toBe(lockBefore);

    // The first one's replies finish and are stored complete (nothing marked them interrupted).
    await replies.finish();
    expect((await fetch(`${first.base}/readyz`)).status).toBe(200);
  }, 90_000);
});

describe('a second process on a taken port', () => {
  it('stops before it opens any database, and the first goes on untouched', async () => {
    const replies = await liveReplies('owner-ben@example.com');
    const instancesBefore = await serverInstances();
    const otherDir = mkdtempSync(path.join(tmpdir(), 'chorus-owner-other-'));
    spares.push(otherDir);

    const second = spawnServerProcess({
      dataDir: otherDir,
      port: first.port,
      simBaseUrls: sim.baseUrls,
      databaseUrl: pgDb?.url,
    });
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(
      `Chorus cannot start. Port ${first.port} is already in use; set PORT to a free port.`,
    );
    // No embedded database was made, and no instance joined the shared one.
    expect(existsSync(path.join(otherDir, 'db'))).toBe(false);
    expect(await serverInstances()).toEqual(instancesBefore);

    await replies.finish();
  }, 90_000);
});

describe('probes', () => {
  it('answers /livez and /readyz as JSON, not with the web app', async () => {
    const live = await fetch(`${first.base}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${first.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', database: 'ok', realtime: 'ok' });
  });
});
