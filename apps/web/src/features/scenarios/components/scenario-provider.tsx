import { useMemo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ScenarioContext } from './scenario-context';

const scenarioIdFromPath = (pathname: string): string | null => {
  const match = /^\/scenarios\/([^/]+)/.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
};

export const ScenarioProvider = ({ children }: { children: ReactNode }) => {
  const { pathname } = useLocation();
  const activeScenarioId = scenarioIdFromPath(pathname);
  const value = useMemo(() => ({ activeScenarioId }), [activeScenarioId]);
  return <ScenarioContext.Provider value={value}>{children}</ScenarioContext.Provider>;
};
