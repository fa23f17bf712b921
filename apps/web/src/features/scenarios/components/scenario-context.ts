import { createContext, useContext } from 'react';

export type ScenarioContextValue = {
  /** The scenario open in /scenarios/:id, if any. */
  activeScenarioId: string | null;
};

export const ScenarioContext = createContext<ScenarioContextValue | null>(null);

export const useScenario = (): ScenarioContextValue => {
  const value = useContext(ScenarioContext);
  if (!value) throw new Error('useScenario must be used inside <ScenarioProvider>');
  return value;
};
