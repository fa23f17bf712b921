import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import { minPasswordScore, weakPasswordMessage } from '@chorus/shared/password-policy';

// The common-password lists and keyboard graphs load once per process.
const zxcvbn = new ZxcvbnFactory({
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary },
});

/**
 * Null for a password hard enough to guess, otherwise what to tell the person. Their e-mail
 * address and name count as guessable parts: `jane.doe` is weak for jane.doe@….
 */
export const weakPasswordReason = (password: string, userInputs: string[] = []): string | null => {
  // Long passwords pass on length alone; checking them would only cost time.
  if (password.length > 64) return null;
  const inputs = userInputs.flatMap((input) => input.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  const result = zxcvbn.check(
    password,
    inputs.filter((part) => part.length >= 3),
  );
  return result.score >= minPasswordScore ? null : weakPasswordMessage(result.feedback.warning);
};
