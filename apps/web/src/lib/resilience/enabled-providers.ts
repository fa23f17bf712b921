import type { EnabledProviders } from '@chorus/shared/api/keys';
import {
  enabledProvidersCacheMs,
  enabledProvidersFallback,
  enabledProvidersThrottle,
} from '@chorus/shared/limits';
import type { ProviderId } from '@chorus/shared/providers';
import { diagnostics } from './diagnostics';
import { CallThrottle } from './provider-throttle';
import { isRateLimitError } from './rate-limit-error';

type Cached = { providers: ProviderId[]; at: number };

/**
 * Spec §9: `get-enabled-providers` is asked at most 3 times per second (then not for 5 s),
 * its answer kept 60 s, and on a rate limit the spec's fallback list stands in.
 */
export const createEnabledProvidersClient = (fetchList: () => Promise<EnabledProviders>) => {
  const throttle = new CallThrottle(enabledProvidersThrottle);
  let cached: Cached | undefined;
  let inFlight: Promise<ProviderId[]> | undefined;

  const fallback = (why: string): ProviderId[] => {
    diagnostics.record('rate-limit', `get-enabled-providers: ${why}, using the fallback list`);
    return [...enabledProvidersFallback];
  };

  const get = async (): Promise<ProviderId[]> => {
    const now = Date.now();
    if (cached && now - cached.at < enabledProvidersCacheMs) return cached.providers;
    if (inFlight) return inFlight;
    // While throttled, an older answer is better than the generic list.
    if (throttle.hit('get-enabled-providers', now) > 0) {
      return cached?.providers ?? fallback('throttled');
    }
    inFlight = fetchList()
      .then(({ providers }) => {
        cached = { providers, at: Date.now() };
        return providers;
      })
      .catch((error: unknown) => {
        if (isRateLimitError(error)) return fallback('rate limited');
        throw error;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  return {
    get,
    clear: () => {
      cached = undefined;
      throttle.reset();
    },
  };
};
