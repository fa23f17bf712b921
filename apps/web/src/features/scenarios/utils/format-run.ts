const usdSmall = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumSignificantDigits: 2,
});
const usdCents = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});
const usdWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const integer = new Intl.NumberFormat('en-US');

/**
 * Dollars as small as one model call costs: "$0.00042", "$0.0123", "$1.25". A plain two-decimal
 * format would show most calls as "$0.00".
 */
export const formatUsd = (usd: number): string => {
  if (usd === 0) return '$0.00';
  if (usd < 0.01) return usdSmall.format(usd);
  if (usd < 1) return usdCents.format(usd);
  return usdWhole.format(usd);
};

/** "850 ms", "1.4 s", "12 s". */
export const formatDuration = (ms: number): string => {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return seconds < 10 ? `${seconds.toFixed(1)} s` : `${Math.round(seconds)} s`;
};

export const formatTokens = (tokens: number): string => integer.format(tokens);
