import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { unsentMessages } from '@/lib/chat/unsent';
import { forgetEnabledProviders } from '@/lib/queries/enabled-providers';

// Lazy chunks (markdown, highlighting) load within the wait; on a busy 2-core machine that can
// take longer than Testing Library's default second, so `findBy*` waits up to 5 s.
configure({ asyncUtilTimeout: 5000 });

// A console.error during a test is a bug unless the test says it expects one
// (call `vi.mocked(console.error).mockImplementation(() => {})` in that test).
beforeEach(() => {
  // Unit tests have no server: any call that is not stubbed by the test fails plainly.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.reject(new Error('No network in unit tests; stub fetch in the test'))),
  );
  const original = console.error;
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    original(...args);
    throw new Error(
      'console.error was called during this test. If that is expected, mock it in the test.',
    );
  });
});

afterEach(() => {
  cleanup();
  // Test files share a module graph (isolate: false): tab-wide caches start empty each test.
  forgetEnabledProviders();
  window.localStorage.clear();
  unsentMessages.reset();
  document.documentElement.className = '';
});
