import { useQuery } from '@tanstack/react-query';
import type { EnabledProviders } from '@chorus/shared/api/keys';
import { enabledProvidersCacheMs } from '@chorus/shared/limits';
import { api } from '@/lib/api-client';
import { createEnabledProvidersClient } from '@/lib/resilience/enabled-providers';

/** One client per tab: its throttle and 60 s cache are shared by every caller (spec §9). */
const enabledProviders = createEnabledProvidersClient(() =>
  api.post<EnabledProviders>('/functions/v1/get-enabled-providers'),
);

export const enabledProvidersQueryKey = ['enabled-providers'] as const;

/** Forgets the tab's answer, so the next read asks the server (after an admin turns one off). */
export const forgetEnabledProviders = () => enabledProviders.clear();

/** The providers an admin has left on; undefined while unknown (then nothing is greyed out). */
export const useEnabledProviders = () =>
  useQuery({
    queryKey: enabledProvidersQueryKey,
    queryFn: () => enabledProviders.get(),
    staleTime: enabledProvidersCacheMs,
  }).data;
