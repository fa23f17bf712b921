import type { RecordedRequest } from '@chorus/provider-sim';

/** Where global setup started the provider simulator (workers inherit it). */
export const providerSimUrlEnv = 'E2E_PROVIDER_SIM_URL';

/** Every request the provider simulator has received in this run, oldest first. */
export const providerSimRequests = async (): Promise<RecordedRequest[]> => {
  const url = process.env[providerSimUrlEnv];
  if (!url) throw new Error(`Global setup did not set ${providerSimUrlEnv}`);
  const response = await fetch(`${url}/_sim/requests`);
  if (!response.ok) throw new Error(`GET ${url}/_sim/requests answered ${response.status}`);
  return (await response.json()) as RecordedRequest[];
};
