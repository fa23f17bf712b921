import { useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { storageKeys } from '@chorus/shared/storage-keys';
import { useGlobalBlock } from '@/lib/resilience/hooks';
import { globalBlock } from '@/lib/resilience/runtime';
import { startResilience } from '@/lib/resilience/start';
import { storage } from '@/lib/storage';

// Neither shows on a first paint (a block or `diag` = '1' is rare), so both load when they do.
const RateLimitPage = lazy(() =>
  import('./rate-limit-page').then((m) => ({ default: m.RateLimitPage })),
);
const DiagnosticsOverlay = lazy(() =>
  import('./diagnostics-overlay').then((m) => ({ default: m.DiagnosticsOverlay })),
);

const subscribeToStorage = (onChange: () => void) => {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
};

/** Spec §2: the overlay shows only while local storage `diag` is exactly '1'. */
const useDiagFlag = () =>
  useSyncExternalStore(subscribeToStorage, () => storage.get(storageKeys.diag) === '1');

const retryNow = () => globalBlock.retryNow();

/**
 * Starts this tab's resilience layer and draws what it shows: the full-screen 'Rate Limit
 * Active' page while the global block lasts (the app stays mounted, inert, beneath it and
 * resumes by itself when the block ends) and the diagnostics overlay when asked for.
 */
export const ResilienceLayer = ({ children }: { children: ReactNode }) => {
  const queryClient = useQueryClient();
  const block = useGlobalBlock();
  const diag = useDiagFlag();

  useEffect(() => startResilience(queryClient), [queryClient]);

  return (
    <>
      <div className="contents" inert={block.blockedUntil !== null}>
        {children}
      </div>
      {block.blockedUntil !== null ? (
        <Suspense fallback={null}>
          <RateLimitPage
            key={block.blockedUntil}
            blockedUntil={block.blockedUntil}
            reason={block.reason ?? ''}
            onRetryNow={retryNow}
          />
        </Suspense>
      ) : null}
      {diag ? (
        <Suspense fallback={null}>
          <DiagnosticsOverlay />
        </Suspense>
      ) : null}
    </>
  );
};
