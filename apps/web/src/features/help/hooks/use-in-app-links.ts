import { useCallback, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';

/**
 * A click handler for HTML the build compiled from our Markdown: a plain click on a link to
 * another page of the app moves within the app instead of reloading it. Other links, and clicks
 * that open a new tab or window, are left to the browser.
 */
export const useInAppLinks = () => {
  const navigate = useNavigate();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element).closest('a');
      const href = link?.getAttribute('href');
      if (!link || link.target || !href?.startsWith('/') || href.startsWith('//')) return;
      event.preventDefault();
      void navigate(href);
    },
    [navigate],
  );
};
