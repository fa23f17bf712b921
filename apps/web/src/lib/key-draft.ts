import { useState } from 'react';
import { apiKeyFormatError } from '@chorus/shared/api/keys';
import type { ProviderId } from '@chorus/shared/providers';

/** A key being typed for a provider, checked against spec §5's format rules before saving. */
export const useKeyDraft = (provider: ProviderId) => {
  const [draft, setDraftState] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  return {
    draft,
    problem,
    setDraft(value: string) {
      setDraftState(value);
      setProblem(null);
    },
    /** The trimmed key when it may be saved; otherwise shows why and answers null. */
    validKey(): string | null {
      const found = apiKeyFormatError(provider, draft);
      setProblem(found);
      return found ? null : draft.trim();
    },
    clear() {
      setDraftState('');
      setProblem(null);
    },
  };
};
