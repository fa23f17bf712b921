/**
 * What the loader (on the host page) and the widget's iframe share: the messages they exchange
 * and a few checks. Both bundles stay small and free of zod, so nothing here imports the shared
 * contract (@chorus/shared/api/widgets) except its types.
 */

/** The iframe to the loader; they carry nothing secret, so the iframe may post them to '*'. */
export type FromWidget = { type: 'chorus:ready' } | { type: 'chorus:close' };

/** The loader to the iframe, always posted to the app's origin only. */
export type ToWidget =
  /** The host site's signed visitor token, or null when there is none. */
  | { type: 'chorus:visitor-token'; token: string | null }
  /** The panel was opened: the iframe focuses its input. */
  | { type: 'chorus:focus' };

/** widgetPublicIdPattern of the contract (a test keeps the two equal). */
export const publicIdPattern = /^wgt_[A-Za-z0-9]{20}$/;

export const defaultColor = '#4f46e5';

/** The widget's colour when it is a `#rrggbb` hex colour, else the default one. */
export const hexColor = (value: unknown): string =>
  typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value) ? value : defaultColor;

/** Dark or white text, whichever reads better on the given `#rrggbb` background. */
export const textColorOn = (hex: string): string => {
  const n = parseInt(hex.slice(1), 16);
  const luma = 0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return luma > 160 ? '#111827' : '#ffffff';
};

/** A message event's data, when it is one of ours. */
export const messageType = (data: unknown): string | undefined => {
  if (typeof data !== 'object' || data === null) return undefined;
  const type = (data as { type?: unknown }).type;
  return typeof type === 'string' && type.startsWith('chorus:') ? type : undefined;
};
