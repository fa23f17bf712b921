import type { QueryClient } from '@tanstack/react-query';
import { diagnostics } from './diagnostics';
import { errorReporter } from './error-reporter';
import { globalBlock, setResilienceEnabled } from './runtime';
import { SessionManager } from './session-manager';
import { tabLeader } from './tab-leader';

const showTabRole = () => {
  document.documentElement.dataset.tabRole = tabLeader.getRole();
};

/**
 * Starts the resilience layer for this tab: the limiter and global block, tab leadership, the
 * session manager, error reporting, and recovery that re-runs the queries a block made fail.
 * Returns how to stop it all.
 */
export const startResilience = (queryClient: QueryClient): (() => void) => {
  setResilienceEnabled(true);
  globalBlock.setRecoveryHandler(() =>
    queryClient.refetchQueries(
      { type: 'active', predicate: (query) => query.state.status === 'error' },
      { throwOnError: true },
    ),
  );
  const unsubscribeRole = tabLeader.subscribe(showTabRole);
  tabLeader.start();
  showTabRole();
  const manager = new SessionManager({ queryClient, leader: tabLeader });
  manager.start();
  const stopReporter = errorReporter.install();
  const onPageHide = () => tabLeader.stop();
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) tabLeader.start();
  };
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('pageshow', onPageShow);
  diagnostics.record('tab', `started as tab ${tabLeader.id.slice(0, 8)}`);

  return () => {
    window.removeEventListener('pagehide', onPageHide);
    window.removeEventListener('pageshow', onPageShow);
    stopReporter();
    manager.stop();
    tabLeader.stop();
    unsubscribeRole();
    delete document.documentElement.dataset.tabRole;
    setResilienceEnabled(false);
  };
};
