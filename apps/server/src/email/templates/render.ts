import { render } from '@react-email/components';
import type { ReactElement } from 'react';

/** One template rendered twice: the HTML part and its plain-text alternative. */
export const renderEmail = async (
  element: ReactElement,
): Promise<{ html: string; text: string }> => {
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { html, text };
};
