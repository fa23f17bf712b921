/** Tokens in and out, "1,200 in · 340 out". */
export const formatTokens = (input: number, output: number): string =>
  `${input.toLocaleString()} in · ${output.toLocaleString()} out`;

const costFormat = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 4,
});

/** A model call's estimated cost in US dollars, to a hundredth of a cent; a dash when unknown. */
export const formatCostUsd = (usd: number | null): string =>
  usd === null ? '—' : costFormat.format(usd);

/** "850 ms", "12.4 s", "3 min 5 s"; a dash when it has not finished. */
export const formatDuration = (ms: number | null): string => {
  if (ms === null) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1_000)} s`;
};

/**
 * A run's output as text to show in a <pre>: text as it is, anything else as indented JSON. It
 * is never read as HTML.
 */
export const outputText = (output: unknown): string => {
  if (output === null || output === undefined) return '';
  if (typeof output === 'string') return output;
  try {
    return JSON.stringify(output, null, 2);
  } catch {
    return String(output);
  }
};
