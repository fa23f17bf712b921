import { APICallError } from 'ai';
import { chatMessages } from '@chorus/shared/messages';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { ProviderStalledError } from './stall-guard.ts';

/** What a person should read when a provider call fails; never a stack or the provider's raw body. */
export const describeProviderError = (provider: ProviderId, error: unknown): string => {
  const name = providers[provider].name;
  if (causes(error).some((e) => e instanceof ProviderStalledError)) {
    return chatMessages.providerStoppedResponding(name);
  }
  const cause = findApiCallError(error);
  if (cause?.statusCode === 401 || cause?.statusCode === 403) {
    return `${name} rejected the API key. Check it on the API keys page.`;
  }
  if (cause?.statusCode === 429) {
    return `${name} is rate limiting requests right now. Wait a moment and try again.`;
  }
  if (cause?.statusCode && cause.statusCode >= 500) {
    return `${name} had a problem answering (HTTP ${cause.statusCode}). Try again in a moment.`;
  }
  if (cause?.statusCode === 404) {
    return `${name} does not know this model. Pick another model and try again.`;
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `${name} took too long to answer. Try again, or pick a faster model.`;
  }
  return `The reply from ${name} failed. Try again, or switch to another provider.`;
};

/** The error and what it wraps (a retry's last error, a cause), a few levels deep. */
const causes = (error: unknown): unknown[] => {
  const chain: unknown[] = [];
  let e: unknown = error;
  for (let depth = 0; e && depth < 5; depth++) {
    chain.push(e);
    e = (e as { lastError?: unknown }).lastError ?? (e as { cause?: unknown }).cause;
  }
  return chain;
};

const findApiCallError = (error: unknown): APICallError | undefined =>
  causes(error).find((e): e is APICallError => APICallError.isInstance(e));
