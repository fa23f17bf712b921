import { afterAll, afterEach, vi } from 'vitest';

// A console.error during a test is a bug until proven otherwise (house habit from epic-stack).
const consoleError = vi.spyOn(console, 'error');
afterEach(() => {
  const calls = consoleError.mock.calls;
  consoleError.mockClear();
  if (calls.length > 0) {
    throw new Error(`console.error was called:\n${calls.map((c) => c.join(' ')).join('\n')}`);
  }
});
// Test files share a worker (vitest.config.ts, isolate: false): the next file spies afresh.
afterAll(() => consoleError.mockRestore());
