/**
 * Can an outsider tell from the time of an answer whether an address has an account? Times the
 * flows that take an address from anyone — password reset, request access, and sign-up while
 * sign-up is by request — for an address with an account and one without, interleaved, each
 * request from its own client address (so the `auth` limit never answers instead), with mail
 * going to a real SMTP server on loopback as in production.
 *
 *   npm run build -w @chorus/server && npx tsx bench/account-probe.ts [--rounds 60]
 *
 * Set BENCH_DATABASE_URL to run on PostgreSQL instead of the embedded PGlite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSmtpSink } from '../apps/server/src/email/testing/smtp-sink.ts';
import { freePort, percentile, signUp, startServer } from './lib.ts';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 60;
const databaseUrl = process.env.BENCH_DATABASE_URL;
const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-'));
const sink = await startSmtpSink();
const port = Number(process.env.BENCH_PORT) || (await freePort());
const server = await startServer(
  {
    DATA_DIR: dataDir,
    SMTP_URL: sink.url,
    TRUST_PROXY: 'true',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  },
  port,
);

let ipCounter = 0;
/** A fresh TEST-NET-3 address per request. */
const nextIp = () => {
  ipCounter += 1;
  return `203.0.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
};

const post = async (url: string, body: unknown) => {
  const started = performance.now();
  const res = await fetch(`${server.baseUrl}${url}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: server.baseUrl,
      'x-forwarded-for': nextIp(),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { ms: performance.now() - started, status: res.status, text };
};

type Row = {
  flow: string;
  who: string;
  status: string;
  p50: number;
  p95: number;
  min: number;
  max: number;
};
const rows: Row[] = [];

/** Interleaves known and unknown, so drift in the machine's load falls on both alike. */
const probe = async (
  flow: string,
  send: (known: boolean, n: number) => ReturnType<typeof post>,
) => {
  const times = { known: [] as number[], unknown: [] as number[] };
  const answers = { known: new Set<string>(), unknown: new Set<string>() };
  for (let n = 0; n < rounds; n++) {
    for (const known of n % 2 === 0 ? [true, false] : [false, true]) {
      const r = await send(known, n);
      const key = known ? 'known' : 'unknown';
      times[key].push(r.ms);
      answers[key].add(`${r.status} ${r.text}`);
    }
  }
  for (const who of ['known', 'unknown'] as const) {
    const t = times[who];
    rows.push({
      flow,
      who,
      status: [...answers[who]].map((a) => a.slice(0, 60)).join(' | '),
      p50: percentile(t, 50),
      p95: percentile(t, 95),
      min: +Math.min(...t).toFixed(2),
      max: +Math.max(...t).toFixed(2),
    });
  }
};

try {
  const owner = await signUp(
    server.baseUrl,
    'probe-owner@example.com',
    'bench-password-1',
    nextIp(),
  );
  // Warm every path once before timing.
  await post('/auth/v1/request-password-reset', { email: 'probe-owner@example.com' });
  await post('/auth/v1/request-password-reset', { email: 'warm-nobody@example.com' });

  await probe('password reset', (known, n) =>
    post('/auth/v1/request-password-reset', {
      email: known ? 'probe-owner@example.com' : `nobody-${n}@example.com`,
      redirectTo: '/reset-password',
    }),
  );
  await probe('request access', (known, n) =>
    post('/rest/v1/access-requests', {
      email: known ? 'probe-owner@example.com' : `stranger-${n}@example.com`,
      reason: 'Benchmark',
    }),
  );
  await owner.json('PUT', '/rest/v1/admin/settings', { signup_mode: 'request' });
  await probe('sign-up by request', (known, n) =>
    post('/auth/v1/sign-up/email', {
      email: known ? 'probe-owner@example.com' : `newcomer-${n}@example.com`,
      password: 'bench-password-1',
      name: 'Probe',
    }),
  );
  console.table(rows);
  // Every reset asked for the known address is mailed, from the queue, in a while.
  const asked = rounds + 1;
  const started = performance.now();
  while (
    sink.to('probe-owner@example.com').length < asked &&
    performance.now() - started < 120_000
  ) {
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(
    `reset mails delivered to the known address: ${sink.to('probe-owner@example.com').length} of ${asked}, the last ${Math.round(performance.now() - started)} ms after the last answer`,
  );
} finally {
  await server.stop();
  await sink.close();
  rmSync(dataDir, { recursive: true, force: true });
}
