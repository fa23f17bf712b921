import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import { minPasswordScore, weakPasswordMessage } from '@chorus/shared/password-policy';

// The common-password lists and keyboard graphs load once per process.
const zxcvbn = new ZxcvbnFactory({
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary },
});

/** Shorter pieces would match inside nearly every password and say nothing about the person. */
const MIN_PIECE = 3;

/**
 * What an attacker who knows the person would try first, from their name and e-mail address:
 * each whole, the address's local part, each word, and the words run together and joined by the
 * usual separators (`jane doe` → `janedoe`, `jane.doe`, `jdoe`). zxcvbn matches user inputs as
 * whole dictionary words only, so `janedoe2024` is caught by `janedoe`, never by `jane` and
 * `doe` apart.
 */
export const personalWords = (inputs: readonly string[]): string[] => {
  const out = new Set<string>();
  const add = (word: string) => {
    if (word.length >= MIN_PIECE) out.add(word);
  };
  for (const raw of inputs) {
    const input = raw.trim().toLowerCase();
    if (!input) continue;
    add(input);
    const at = input.lastIndexOf('@');
    const local = at > 0 ? input.slice(0, at) : input;
    if (at > 0) {
      add(local);
      for (const label of input.slice(at + 1).split('.')) add(label);
    }
    const words = local.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    for (const word of words) add(word);
    if (words.length > 1) {
      for (const separator of ['', '.', '_', '-', ' ']) add(words.join(separator));
      const [first, ...rest] = words;
      const last = rest.at(-1)!;
      add(`${first![0]}${last}`);
      add(`${first}${last[0]}`);
      add(`${last}${first}`);
    }
  }
  return [...out];
};

/**
 * Null for a password hard enough to guess, otherwise what to tell the person. Their name and
 * e-mail address count as guessable (see `personalWords`): `janedoe2024` is weak for Jane Doe.
 */
export const weakPasswordReason = (password: string, userInputs: string[] = []): string | null => {
  // Long passwords pass on length alone; checking them would only cost time.
  if (password.length > 64) return null;
  const result = zxcvbn.check(password, personalWords(userInputs));
  return result.score >= minPasswordScore ? null : weakPasswordMessage(result.feedback.warning);
};
