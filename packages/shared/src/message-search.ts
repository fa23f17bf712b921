// Plain data, no zod: the web's search dialog reads these without loading a schema library.

/** Search inside message text (`GET /rest/v1/messages/search`). */
export const messageSearch = {
  /** Longest query accepted, in characters, after trimming. */
  maxQueryLength: 200,
  /** Words of a query beyond this many are ignored. */
  maxWords: 8,
  defaultLimit: 20,
  maxLimit: 50,
  /**
   * Around each matched word in a hit's snippet. Control characters never shown in a message
   * (they are taken out of the text first), so the web can split on them and render the marks as
   * elements, never as HTML.
   */
  markStart: '\u0002',
  markEnd: '\u0003',
} as const;

const wordPattern = /[\p{L}\p{N}]+/gu;

/**
 * The words a query searches for: runs of letters and digits (anything else separates them),
 * lower-cased, each once, at most `maxWords`. None means there is nothing to search for.
 */
export const searchWords = (query: string): string[] => {
  const words = query.normalize('NFC').toLowerCase().match(wordPattern) ?? [];
  return [...new Set(words)].slice(0, messageSearch.maxWords);
};
