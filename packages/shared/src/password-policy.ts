/**
 * How strong a password must be (zxcvbn's score, 0–4: 3 is "safely unguessable" against an
 * online attack with throttling) and what a person reads when theirs is not. Shared, so the sign-up
 * and reset forms can say the same thing before the server does.
 */
export const minPasswordScore = 3;

/** Why a password was refused, by zxcvbn's warning key; anything else gets the general advice. */
const reasons: Record<string, string> = {
  topTen: 'it is one of the ten most used passwords',
  topHundred: 'it is one of the hundred most used passwords',
  common: 'it is a commonly used password',
  similarToCommon: 'it is very like a commonly used password',
  wordByItself: 'a single word is easy to guess',
  namesByThemselves: 'names on their own are easy to guess',
  commonNames: 'common names are easy to guess',
  userInputs: 'it contains your name or e-mail address',
  straightRow: 'rows of keys on the keyboard are easy to guess',
  keyPattern: 'short keyboard patterns are easy to guess',
  simpleRepeat: 'repeated characters like "aaa" are easy to guess',
  extendedRepeat: 'repeated patterns like "abcabc" are easy to guess',
  sequences: 'sequences like "abc" or "6543" are easy to guess',
  recentYears: 'recent years are easy to guess',
  dates: 'dates are easy to guess',
};

export const weakPasswordMessage = (warning: string | null | undefined): string => {
  const why = warning ? reasons[warning] : undefined;
  return `This password is too easy to guess${why ? `: ${why}` : ''}. Use a longer one, for example three or four unrelated words.`;
};
