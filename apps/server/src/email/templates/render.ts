import { toPlainText } from '@react-email/components';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

const DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/**
 * One template rendered as the HTML part and its plain-text alternative.
 *
 * Rendered with React's synchronous static renderer, not react-email's `render`: that one streams
 * through React's server renderer, whose first use turns on an AsyncLocalStorage for good, and on
 * Node 20 that makes every promise in the process cost more from then on (about 10 % of the
 * server's CPU while replies stream, bench/load.ts). The templates are plain components, so the
 * markup is the same.
 */
export const renderEmail = async (
  element: ReactElement,
): Promise<{ html: string; text: string }> => {
  const html = `${DOCTYPE}${renderToStaticMarkup(element).replace(/<!DOCTYPE.*?>/, '')}`;
  return { html, text: toPlainText(html) };
};
