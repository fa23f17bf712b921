import { rmSync } from 'node:fs';
import { stopAppServer } from './support/app-server.ts';
import { runState } from './support/run-state.ts';
import { stopSmtpServer } from './support/smtp.ts';

export default async function globalTeardown() {
  const { server, smtp, sim, dataDir, toolTargets } = runState;
  try {
    if (server) await stopAppServer(server);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  } finally {
    if (smtp) await stopSmtpServer(smtp);
    if (sim) await sim.close();
    if (toolTargets) await toolTargets.close();
  }
}
