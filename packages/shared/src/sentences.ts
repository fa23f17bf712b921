const terminal = /[.!?…]["'”’)]*$/;

/** Ends a sentence with one full stop unless it already ends with its own mark. */
export const asSentence = (text: string): string => {
  const trimmed = text.trim().replace(/\s*[.]+$/, (dots) => (dots.includes('..') ? '.' : dots));
  if (!trimmed) return '';
  return terminal.test(trimmed) ? trimmed : `${trimmed}.`;
};

/**
 * Joins sentences that come from different places (a provider's words, then ours) into one
 * text with exactly one mark at the end of each: "…another provider." + "What arrived is saved"
 * never reads "provider.. What".
 */
export const joinSentences = (...parts: (string | false | null | undefined)[]): string =>
  parts
    .filter((part): part is string => typeof part === 'string')
    .map(asSentence)
    .filter(Boolean)
    .join(' ');
