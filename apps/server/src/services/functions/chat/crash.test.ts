import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startProviderSim } from '@chorus/provider-sim';
import { chatMessages } from '@chorus/shared/messages';
import { createPostgresDatabaseUrl, testDriver } from '../../../test/database.ts';
import {
  freePort,
  httpUser,
  readUntil,
  startServerProcess,
  type ServerProcess,
} from '../../../test/server-process.ts';
import { partsOf, textOf, waitFor } from '../../../test/streams.ts';
import { seedPgliteDataDir } from '../../../test/template.ts';

// A real server process stopped in the middle of replies, then started again on the same data:
// killed (SIGKILL), nothing is lost that was saved and nothing stays streaming; asked to stop
// (SIGTERM), short replies finish, long ones end with a message the UI shows and are saved with
// their text, and the process exits 0.

let sim: Awaited<ReturnType<typeof startProviderSim>>;
let dataDir: string;
let pgDb: Awaited<ReturnType<typeof createPostgresDatabaseUrl>> | undefined;
let server: ServerProcess | undefined;
let port: number;

const start = async (env: Record<string, string> = {}) =>
  (server = await startServerProcess({
    dataDir,
    port,
    simBaseUrls: sim.baseUrls,
    databaseUrl: pgDb?.url,
    // A killed instance's replies are recovered once its lease runs out (issue 13, point 17).
    env: { INSTANCE_LEASE_MS: '1000', ...env },
  }));

/** On PostgreSQL, until no instance holds a lease (a killed one's has run out). */
const leasesExpired = async () => {
  if (!pgDb) return;
  const client = new pg.Client({ connectionString: pgDb.url });
  await client.connect();
  try {
    await waitFor(async () => {
      const { rows } = await client.query<{ n: number }>(
        'select count(*)::int as n from server_instances where lease_expires_at > now()',
      );
      return rows[0]!.n === 0;
    });
  } finally {
    await client.end();
  }
};

beforeAll(async () => {
  sim = await startProviderSim({ port: 0 });
  dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-crash-'));
  if (testDriver() === 'postgres') pgDb = await createPostgresDatabaseUrl();
  else await seedPgliteDataDir(dataDir);
  port = await freePort();
}, 60_000);

afterAll(async () => {
  await server?.kill('SIGKILL');
  await sim.close();
  await pgDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('keeps the user message and the partial reply when the server is killed mid-stream', async () => {
  const base = (await start()).base;
  const ann = await httpUser(base, 'crash@example.com');
  const conversation = await ann.conversation();

  const stream = await readUntil(await ann.chat(conversation, 'Keep talking [sim:hang]'), (sse) =>
    sse.includes('text-delta'),
  );
  // Past one flush interval the partial reply is on disk.
  await new Promise((r) => setTimeout(r, 1_500));
  await server!.kill('SIGKILL');
  await stream.cancel();
  await leasesExpired();

  await start();
  const after = await ann.messages(conversation);
  expect(after.map((m) => [m.role, m.status])).toEqual([
    ['user', 'complete'],
    ['assistant', 'interrupted'],
  ]);
  expect(after[0]!.content).toBe('Keep talking [sim:hang]');
  expect(after[1]!.content).toBe('Hello');
}, 120_000);

it('on SIGTERM lets short replies finish, ends long ones with "server restarting", saves both and exits 0', async () => {
  await server?.kill('SIGTERM');
  const running = await start({ SHUTDOWN_GRACE_MS: '3000' });
  const ben = await httpUser(running.base, 'sigterm@example.com');
  const [short, long] = [await ben.conversation(), await ben.conversation()];
  const firstToken = (sse: string) => sse.includes('text-delta');
  const shortStream = await readUntil(
    await ben.chat(short, 'Briefly [sim:tokens 8] [sim:delay-ms 100]'),
    firstToken,
  );
  const longStream = await readUntil(
    await ben.chat(long, 'At length [sim:tokens 400] [sim:delay-ms 50]'),
    firstToken,
  );

  running.child.kill('SIGTERM');
  const shortParts = partsOf(await shortStream.rest());
  // No new connection is accepted while the replies drain.
  await expect(fetch(`${running.base}/healthz`)).rejects.toThrow();
  const longParts = partsOf(await longStream.rest());
  expect(await running.exited).toBe(0);

  expect(shortParts.some((p) => p.type === 'error')).toBe(false);
  expect(shortParts.at(-1)?.type).toBe('finish');
  expect(longParts.find((p) => p.type === 'error')?.errorText).toBe(chatMessages.serverRestarting);

  await start();
  const [shortReply, longReply] = [(await ben.messages(short))[1]!, (await ben.messages(long))[1]!];
  expect(shortReply).toMatchObject({ status: 'complete', content: textOf(shortParts) });
  expect(longReply).toMatchObject({ status: 'interrupted', content: textOf(longParts) });
  expect(longReply.content).toMatch(/^tok1 tok2 tok3/);
}, 120_000);
