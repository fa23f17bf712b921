const allowedProtocols = new Set(['http:', 'https:', 'mailto:']);

/**
 * Markdown may only link to the web or an e-mail address. Anything else — `javascript:`,
 * `data:`, `vbscript:`, relative paths — is dropped (null removes the attribute).
 */
export const safeUrl = (url: string): string | null => {
  try {
    const parsed = new URL(url.trim());
    return allowedProtocols.has(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
};

/** Only http(s) images can be offered for loading. */
export const imageHost = (src: string): string | null => {
  try {
    const parsed = new URL(src);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host : null;
  } catch {
    return null;
  }
};
