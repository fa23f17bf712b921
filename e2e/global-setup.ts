import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startProviderSim } from '@chorus/provider-sim';
import { seedPgliteDataDir } from '../apps/server/src/test/template.ts';
import { startAppServer, waitForHealthy } from './support/app-server.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import { ensureRunPorts } from './support/env.ts';
import { e2eTmpDir, mailDir } from './support/paths.ts';
import { startSmtpServer, stopSmtpServer } from './support/smtp.ts';
import { providerSimUrlEnv } from './support/provider-sim.ts';
import { runState } from './support/run-state.ts';
import { superAdminEnv } from './support/super-admin.ts';
import { startToolTargets } from './support/tool-targets.ts';
import { newTestUser } from './support/users.ts';

/**
 * The first account on an empty database becomes super_admin; create it here so that every
 * account a test signs up is a plain user.
 */
const createThrowawayFirstAccount = async (baseURL: string) => {
  const firstAdmin = newTestUser('first-admin');
  const response = await fetch(`${baseURL}/auth/v1/sign-up/email`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: baseURL,
      'x-forwarded-for': uniqueClientIp(),
    },
    body: JSON.stringify(firstAdmin),
  });
  if (!response.ok) {
    throw new Error(
      `Creating the first (admin) account failed: ${response.status} ${await response.text()}`,
    );
  }
  // Workers inherit the runner's environment: tests that act as an admin sign in with these.
  process.env[superAdminEnv.email] = firstAdmin.email;
  process.env[superAdminEnv.password] = firstAdmin.password;
};

/**
 * Every test writes to its own unique address, so old mail never matches; only mail older
 * than a day is removed (clearing the folder would break a run going on beside this one).
 */
const pruneOldMail = () => {
  mkdirSync(mailDir, { recursive: true });
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(mailDir)) {
    const file = join(mailDir, name);
    if (statSync(file).mtimeMs < dayAgo) rmSync(file, { force: true });
  }
};

export default async function globalSetup(_config: FullConfig) {
  const { appPort, smtpPort, baseURL } = ensureRunPorts();
  mkdirSync(e2eTmpDir, { recursive: true });
  pruneOldMail();

  const smtp = await startSmtpServer(smtpPort, mailDir);
  runState.smtp = smtp;

  // Every provider call goes to the offline simulator of the providers' real HTTP APIs.
  // A small delay between chunks, so replies visibly stream as they would from a provider.
  const sim = await startProviderSim({ port: 0, host: '127.0.0.1', chunkDelayMs: 15 });
  runState.sim = sim;
  // Workers inherit the runner's environment: tests read the simulator's request log there.
  process.env[providerSimUrlEnv] = sim.url;
  const providerUrls = Object.fromEntries(
    Object.entries(sim.baseUrls).map(([id, url]) => [`${id.toUpperCase()}_BASE_URL`, url]),
  );

  // What agents' tools reach: an MCP server, and private pages web fetch must refuse.
  const toolTargets = await startToolTargets();
  runState.toolTargets = toolTargets;

  const dataDir = mkdtempSync(join(e2eTmpDir, 'data-'));
  runState.dataDir = dataDir;
  // The embedded database starts as a copy of the migrated template the integration tests use
  // (ADR 012): no initdb and no migrations while the tests wait for the server.
  await seedPgliteDataDir(dataDir);
  const server = startAppServer(
    {
      PORT: String(appPort),
      DATA_DIR: dataDir,
      APP_URL: baseURL,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      // e2e/tests/email.spec.ts waits for the contact form's mail at this address.
      SUPPORT_EMAIL: 'support@chorus.test',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ...providerUrls,
    },
    join(e2eTmpDir, 'server.log'),
  );
  runState.server = server;
  try {
    await waitForHealthy(server, baseURL);
    await createThrowawayFirstAccount(baseURL);
  } catch (error) {
    // Stop what we started here; teardown then finds nothing left to stop.
    server.child.kill('SIGKILL');
    await stopSmtpServer(smtp);
    await sim.close();
    await toolTargets.close();
    runState.sim = undefined;
    runState.toolTargets = undefined;
    runState.server = undefined;
    runState.smtp = undefined;
    throw error;
  }
  console.log(`[e2e] app at ${baseURL} (data ${dataDir}), SMTP on 127.0.0.1:${smtpPort}`);
}
