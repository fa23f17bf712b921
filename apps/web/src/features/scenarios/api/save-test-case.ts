import { useMutation } from '@tanstack/react-query';
import type { TestCase } from '@chorus/shared/api/scenarios';
import { api } from '@/lib/api-client';
import { scenarioRunPath } from './get-scenario-run';

export const saveTestCase = ({ runId, target }: { runId: string; target: number }) =>
  api.post<TestCase>(`${scenarioRunPath(runId)}/test-cases`, { target });

export const useSaveTestCase = () => useMutation({ mutationFn: saveTestCase });
