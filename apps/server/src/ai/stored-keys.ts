import type { ProviderId } from '@chorus/shared/providers';

export type Candidate = { source: 'user' | 'default' | 'system'; sealed: string; hint: string };

/**
 * Every stored key that could serve this user, per provider in resolution order, and the
 * providers an admin switched off. Sealed: a key is opened only for the call that uses it.
 */
export type StoredKeys = {
  disabled: ProviderId[];
  candidates: Partial<Record<ProviderId, Candidate[]>>;
};
