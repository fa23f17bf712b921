import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two kinds of run: `unit` (no database, no network) and `integration` (the server against a
// real database; TEST_DB=pglite|postgres picks which). `npm test` runs both, integration twice.
export default defineConfig({
  test: {
    // A worker per core, not vitest's default of one fewer: a test file spends much of its time
    // waiting on its database, its server child or a timer, so on 2 cores one worker left the
    // machine half idle (integration on PGlite 288 → 195 s wall, on PostgreSQL 265 → 164 s).
    // More workers than cores starve the tests that time a live stream against a second process.
    maxWorkers: availableParallelism(),
    projects: [
      {
        test: {
          name: 'unit',
          // Files share a worker's modules (ADR 012); no unit test mocks modules.
          isolate: false,
          include: [
            'packages/shared/src/**/*.test.ts',
            'apps/server/src/**/*.unit.test.ts',
            'tools/*/src/**/*.test.ts',
          ],
          testTimeout: 30_000,
          environment: 'node',
        },
      },
      'apps/web',
      {
        test: {
          name: 'integration',
          include: ['apps/server/src/**/*.test.ts'],
          exclude: ['apps/server/src/**/*.unit.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // A worker runs its test files one after another in one module graph: the server's
          // modules are imported and PGlite's WebAssembly compiled once per worker, not once per
          // file (about 5 s of CPU a file). Each file still opens its own app and database, and
          // no integration test mocks modules or globals (setup.ts restores console.error).
          isolate: false,
          setupFiles: ['apps/server/src/test/setup.ts'],
          // Builds the migrated template database once; each test file clones it (ADR 012).
          globalSetup: ['apps/server/src/test/global-setup.ts'],
        },
      },
    ],
  },
});
