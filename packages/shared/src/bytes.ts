const units = ['KB', 'MB', 'GB', 'TB'] as const;

/** "512 bytes", "1.5 MB", "10 MB": binary units (1 MB = 1,048,576 bytes), at most one decimal. */
export const formatBytes = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes;
  let unit = 0;
  do {
    value /= 1024;
    unit += 1;
  } while (value >= 1024 && unit < units.length);
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded : rounded.toFixed(1)} ${units[unit - 1]}`;
};
