import { defineConfig } from 'vitest/config';

// Two kinds of run: `unit` (no database, no network) and `integration` (the server against a
// real database; TEST_DB=pglite|postgres picks which). `npm test` runs both, integration twice.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
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
          setupFiles: ['apps/server/src/test/setup.ts'],
        },
      },
    ],
  },
});
