import type { SMTPServer } from 'smtp-server';
import type { startProviderSim } from '@chorus/provider-sim';
import type { AppServer } from './app-server.ts';
import type { ToolTargets } from './tool-targets.ts';

type RunState = {
  server?: AppServer;
  smtp?: SMTPServer;
  sim?: Awaited<ReturnType<typeof startProviderSim>>;
  dataDir?: string;
  toolTargets?: ToolTargets;
};

const holder = globalThis as typeof globalThis & { __chorusE2eRunState?: RunState };

/** What global setup started, shared with global teardown (both run in the runner process). */
export const runState: RunState = (holder.__chorusE2eRunState ??= {});
