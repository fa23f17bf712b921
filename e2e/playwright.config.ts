import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { ensureRunPorts } from './support/env.ts';
import { e2eTmpDir } from './support/paths.ts';

const { baseURL } = ensureRunPorts();

/** Specs that wait on the clock (a schedule firing every minute) more than they work. */
const waitingSpecs = /workflows-schedules\.spec\.ts$/;

export default defineConfig({
  testDir: './tests',
  outputDir: join(e2eTmpDir, 'results'),
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  // Two workers for the browser tests, as the machine has two cores, and a third for the one
  // test that mostly waits on real minutes (scheduled runs): it idles beside the rest rather than
  // holding one of the two.
  workers: 3,
  projects: [
    { name: 'waits', testMatch: waitingSpecs, workers: 1 },
    { name: 'chromium', testIgnore: waitingSpecs, workers: 2 },
  ],
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  // The JSON report is what `npm test` ranks the slowest tests from.
  reporter: [['list'], ['json', { outputFile: join(e2eTmpDir, 'report.json') }]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
