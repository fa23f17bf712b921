const terminal = /[.!?…]["'”’)]*$/;
/** What may trail a clause before its full stop: spaces, dots, a stray comma, colon, semicolon. */
const trailing = /[\s.,;:]+$/;

/** Ends a sentence with one full stop unless it already ends with its own mark. */
export const asSentence = (text: string): string => {
  const bare = text.trim().replace(trailing, '');
  if (!bare) return '';
  return terminal.test(bare) ? bare : `${bare}.`;
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

const sentenceRules: [problem: string, broken: (text: string) => boolean][] = [
  ['is empty', (t) => t.trim() === ''],
  ['has white space at either end', (t) => t !== t.trim()],
  ['starts with neither a capital letter nor a digit', (t) => !/^[A-Z0-9]/.test(t)],
  ['holds a doubled full stop', (t) => /\.\s*\./.test(t)],
  ['holds a mark right after a comma, colon or semicolon', (t) => /[,;:]\s*[.!?]/.test(t)],
  ['holds a comma, colon or semicolon right after a full stop', (t) => /[.!?][,;:]/.test(t)],
  ['holds a space before a mark', (t) => /\s[.,;:!?]/.test(t)],
  ['holds two spaces, a tab or a line break', (t) => /\s\s|[\t\n\r]/.test(t)],
];

/**
 * What is wrong with a message's punctuation, as sentences a test can print; none for a
 * well-formed message. `finalMark: false` for wording the product spec fixes without one.
 */
export const sentenceProblems = (
  text: string,
  { finalMark = true }: { finalMark?: boolean } = {},
): string[] => {
  const problems = sentenceRules.filter(([, broken]) => broken(text)).map(([problem]) => problem);
  if (finalMark && !/[^.!?][.!?]["'”’)]*$/.test(text)) {
    problems.push('does not end with exactly one of . ! ?');
  }
  return problems;
};
