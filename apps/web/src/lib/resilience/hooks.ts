import { useSyncExternalStore } from 'react';
import { diagnostics } from './diagnostics';
import { errorReporter } from './error-reporter';
import { globalBlock } from './runtime';
import { tabLeader } from './tab-leader';

export const useGlobalBlock = () =>
  useSyncExternalStore(globalBlock.subscribe, globalBlock.getSnapshot);

export const useTabRole = () => useSyncExternalStore(tabLeader.subscribe, tabLeader.getRole);

export const useDiagnostics = () =>
  useSyncExternalStore(diagnostics.subscribe, diagnostics.snapshot);

export const useErrorReports = () =>
  useSyncExternalStore(errorReporter.subscribe, errorReporter.snapshot);
