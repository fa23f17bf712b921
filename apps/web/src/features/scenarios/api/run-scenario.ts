import type { ScenarioRunEvent, ScenarioRunRequest } from '@chorus/shared/api/scenarios';
import { apiStream } from '@/lib/api-client';
import { readNdjson } from '../utils/read-ndjson';

/**
 * Starts a run and hands each NDJSON event to `onEvent` as it arrives. Resolves when the stream
 * ends; throws an ApiError when the server refuses the run, and the AbortError on `signal`.
 */
export const runScenario = async (
  request: ScenarioRunRequest,
  { signal, onEvent }: { signal: AbortSignal; onEvent: (event: ScenarioRunEvent) => void },
): Promise<void> => {
  const response = await apiStream('/functions/v1/scenario-run', {
    headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
    body: JSON.stringify({ ...request, stream: true }),
    signal,
  });
  if (!response.body) throw new Error('The server answered the run without a body.');
  for await (const event of readNdjson(response.body)) onEvent(event as ScenarioRunEvent);
};
