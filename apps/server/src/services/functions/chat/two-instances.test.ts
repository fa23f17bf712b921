import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderSim } from '@chorus/provider-sim';
import { createPostgresDatabaseUrl, testDriver } from '../../../test/database.ts';
import {
  httpUser,
  readUntil,
  startServerProcess,
  type ServerProcess,
} from '../../../test/server-process.ts';
import { partsOf, textOf, waitFor } from '../../../test/streams.ts';

// Two server processes on one PostgreSQL, as behind a load balancer. Starting one must not touch
// the other's live replies; once one is killed, the other's sweeper recovers its replies without
// a restart. PGlite belongs to one process, so there is nothing to share there.

const leaseMs = 1_000;
let sim: Awaited<ReturnType<typeof startProviderSim>>;
let db: Awaited<ReturnType<typeof createPostgresDatabaseUrl>>;
const dataDirs: string[] = [];
const servers: ServerProcess[] = [];

const start = async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-instances-'));
  dataDirs.push(dataDir);
  const server = await startServerProcess({
    dataDir,
    simBaseUrls: sim.baseUrls,
    databaseUrl: db.url,
    // Shared secrets, as several instances need (README), so a session works on both.
    env: {
      AUTH_SECRET: 'two-instances-auth-secret-0123456789abcdef',
      KEY_ENCRYPTION_SECRET: 'two-instances-key-secret-0123456789abcdef',
      INSTANCE_LEASE_MS: String(leaseMs),
    },
  });
  servers.push(server);
  return server;
};

describe.skipIf(testDriver() !== 'postgres')('two instances on one PostgreSQL', () => {
  beforeAll(async () => {
    sim = await startProviderSim({ port: 0 });
    db = await createPostgresDatabaseUrl();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill('SIGKILL')));
    await sim?.close();
    await db?.drop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it("leaves another instance's live replies alone, and recovers a dead one's without a restart", async () => {
    const a = await start();
    const ann = await httpUser(a.base, 'two-instances@example.com');
    const conversation = await ann.conversation();

    // A slow reply on A (30 s), still streaming while B starts (up to 25 s on a busy machine).
    const slow = await readUntil(
      await ann.chat(conversation, 'Take your time [sim:tokens 300] [sim:delay-ms 100]'),
      (sse) => sse.includes('text-delta'),
    );
    const b = await start();
    const [, live] = await ann.messages(conversation);
    expect(live!.status).toBe('streaming');
    const streamed = textOf(partsOf(await slow.rest()));
    await waitFor(async () => (await ann.messages(conversation)).at(-1)?.status === 'complete');
    expect((await ann.messages(conversation)).at(-1)!.content).toBe(streamed);

    // A dies mid-reply: B's sweep interrupts it once A's lease is over, within a few heartbeats.
    const hanging = await readUntil(await ann.chat(conversation, 'Go on [sim:hang]'), (sse) =>
      sse.includes('text-delta'),
    );
    await new Promise((r) => setTimeout(r, 1_200));
    await a.kill('SIGKILL');
    await hanging.cancel();
    ann.use(b.base);
    expect((await ann.messages(conversation)).at(-1)!.status).toBe('streaming');

    await waitFor(
      async () => (await ann.messages(conversation)).at(-1)!.status === 'interrupted',
      20_000,
    );
    const rows = await ann.messages(conversation);
    expect(rows.map((m) => m.status)).toEqual(['complete', 'complete', 'complete', 'interrupted']);
    expect(rows.at(-1)!.content).toBe('Hello');
  }, 90_000);
});
